"""Paragraphs against sentences: nothing a user types may be silently lost.

Builds paragraphs from a prepared test split by joining 2–4 consecutive pairs (each side in its
own language's way), translates the sentences one by one and the paragraphs whole, and compares
BLEU and the length ratio (output / reference tokens) of the two, per direction. A translator
that drops sentences shows it here as a length ratio far below 1 and a BLEU far below the
sentence-level one. Ends with one JSON line.

    python benchmarks/long_input.py [--model DIR] [--data data/tatoeba-bi] [--split test] \\
        [--min 2] [--max 4] [--limit N] [--beam 5] [--threads 2]

The data directory comes from `fanyi prepare --config configs/data/tatoeba-bi.yaml` (the
bundled model's split); --model defaults to the bundled model.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from common import emit, machine, read_lines, scored
from fanyi.data import read_manifest
from fanyi.runtime import set_threads
from fanyi.text.lang import join_sentences, split_tag
from fanyi.translate.translator import Translator


def directions(data: Path, split: str) -> tuple[dict[str, list[tuple[str, str]]], tuple[str, str]]:
    """The split's (source, reference) pairs by target language, tags removed, in file order;
    and the data's two languages."""
    config = read_manifest(data).config
    sources = read_lines(str(data / f"{split}.src"))
    refs = read_lines(str(data / f"{split}.tgt"))
    by_target: dict[str, list[tuple[str, str]]] = {}
    for src, ref in zip(sources, refs, strict=True):
        tag, text = split_tag(src)
        to = tag[2:-1] if tag else config.tgt_lang
        by_target.setdefault(to, []).append((text, ref))
    return by_target, (config.src_lang, config.tgt_lang)


def tsv_directions(path: str, langs: tuple[str, str]) -> dict[str, list[tuple[str, str]]]:
    """Both directions of a TSV of (langs[0], langs[1]) pairs, by target language."""
    pairs = [tuple(line.split("\t")[:2]) for line in read_lines(path)]
    return {langs[1]: [(a, b) for a, b in pairs], langs[0]: [(b, a) for a, b in pairs]}


def paragraphs(
    pairs: list[tuple[str, str]], langs: tuple[str, str], lo: int, hi: int, seed: int
) -> list[tuple[str, str]]:
    """Consecutive runs of lo..hi pairs joined into (source, reference) paragraphs."""
    rng, joined, i = random.Random(seed), [], 0
    while i < len(pairs):
        run = pairs[i : i + rng.randint(lo, hi)]
        joined.append(
            (
                join_sentences([s for s, _ in run], langs[0]),
                join_sentences([r for _, r in run], langs[1]),
            )
        )
        i += len(run)
    return joined


def compare(translator: Translator, pairs, to: str, source_lang: str, args) -> dict:
    """Sentence-level and paragraph-level scores of one direction."""
    result = {}
    units = {"sentences": pairs, "paragraphs": paragraphs(pairs, (source_lang, to), *args.span)}
    for name, items in units.items():
        start = time.perf_counter()
        hypotheses = translator([s for s, _ in items], to=to, beam=args.beam)
        result[name] = {
            "count": len(items),
            **scored(hypotheses, [r for _, r in items], to),  # type: ignore[arg-type]
            "seconds": round(time.perf_counter() - start, 1),
        }
    result["bleu_gap"] = round(result["sentences"]["bleu"] - result["paragraphs"]["bleu"], 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="model directory (default: the bundled model)")
    parser.add_argument("--data", default="data/tatoeba-bi", help="a prepared data directory")
    parser.add_argument("--split", default="test")
    parser.add_argument("--pairs", help="a TSV of pairs instead of --data (both directions)")
    parser.add_argument("--langs", default="zh,en", help="--pairs: the languages of its columns")
    parser.add_argument("--min", type=int, default=2, help="fewest sentences in a paragraph")
    parser.add_argument("--max", type=int, default=4, help="most sentences in a paragraph")
    parser.add_argument("--limit", type=int, help="first N sentences of each direction")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.span = (args.min, args.max, args.seed)
    set_threads(args.threads)
    translator = Translator.load(args.model)
    if args.pairs:
        langs = tuple(args.langs.split(","))
        by_target = tsv_directions(args.pairs, langs)
    else:
        by_target, langs = directions(Path(args.data), args.split)
    results = {}
    for to, pairs in sorted(by_target.items()):
        source_lang = langs[0] if to == langs[1] else langs[1]
        results[to] = compare(translator, pairs[: args.limit], to, source_lang, args)
        s, p = results[to]["sentences"], results[to]["paragraphs"]
        print(
            f"→{to}: sentences BLEU {s['bleu']:.2f} (ratio {s['length_ratio']:.3f}), "
            f"paragraphs of {args.min}-{args.max} BLEU {p['bleu']:.2f} "
            f"(ratio {p['length_ratio']:.3f}), gap {results[to]['bleu_gap']:.2f}"
        )
    emit(
        {
            "benchmark": "long_input",
            "model": args.model or "bundled",
            "data": args.data,
            "split": args.split,
            "beam": args.beam,
            "limit": args.limit,
            "results": results,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

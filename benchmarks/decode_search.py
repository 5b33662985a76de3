"""Beam size and length penalty against BLEU: one trained model decodes one test set greedily and
with each (beam, α) of a grid; then the best setting's BLEU by source length, in thirds. Ends with
one JSON line.

    python benchmarks/decode_search.py [MODEL_DIR] --src test.zh --ref test.en \\
        [--beams 1,4,5] [--alphas 0.6,1.0,1.5] [--threads 2] [--limit 1000]

MODEL_DIR defaults to the bundled model. α is GNMT's length penalty (Wu et al., 2016, §7;
docs/decoding.md); greedy search (beam 1) has none, so it is decoded once.
"""

from __future__ import annotations

import argparse
import time

from common import emit, machine, read_lines
from fanyi.runtime import set_threads
from fanyi.scores import score
from fanyi.translate.translator import Translator


def floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")]


def scored(hypotheses: list[str], refs: list[str], target: str) -> dict:
    """BLEU, chrF, brevity penalty and length ratio (output / reference tokens)."""
    scores = score(hypotheses, [refs], target)
    return {
        "bleu": round(scores.bleu, 2),
        "chrf": round(scores.chrf, 2),
        "bp": round(scores.bp, 3),
        "length_ratio": round(scores.length_ratio, 3),
        "signature": scores.bleu_signature,
    }


def decode(
    translator: Translator, sources: list[str], to: str | None, beam: int, alpha: float
) -> tuple[list[str], float]:
    """Translations of ``sources`` with this beam and α, and the seconds they took."""
    start = time.perf_counter()
    hypotheses = translator(sources, to=to, beam=beam, length_penalty=alpha)
    return hypotheses, time.perf_counter() - start


def by_length(
    translator: Translator,
    sources: list[str],
    hypotheses: list[str],
    refs: list[str],
    target: str,
) -> list[dict]:
    """BLEU of the shortest, middle and longest third of the sources (in subword tokens)."""
    lengths = translator.token_counts(sources, target)
    order = sorted(range(len(sources)), key=lengths.__getitem__)
    thirds = [order[k * len(order) // 3 : (k + 1) * len(order) // 3] for k in range(3)]
    return [
        {
            "sentences": len(part),
            "source_tokens": [lengths[part[0]], lengths[part[-1]]],
            **scored([hypotheses[i] for i in part], [refs[i] for i in part], target),
        }
        for part in thirds
        if part
    ]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", nargs="?", help="model directory (default: bundled)")
    parser.add_argument("--src", required=True, help="source sentences, one a line")
    parser.add_argument("--ref", required=True, help="reference translations")
    parser.add_argument("--to", help="target language (default: detected)")
    parser.add_argument("--beams", type=ints, default=[1, 4, 5], help="comma-separated")
    parser.add_argument("--alphas", type=floats, default=[0.6, 1.0, 1.5], help="comma-separated")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, help="only the first N sentences")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    sources, refs = read_lines(args.src, args.limit), read_lines(args.ref, args.limit)
    if len(sources) != len(refs):
        raise SystemExit(f"{args.src} has {len(sources)} lines, {args.ref} {len(refs)}")
    set_threads(args.threads)
    translator = Translator.load(args.model)
    target = translator.text.languages.target_of(sources[0], args.to)
    grid = [(b, a) for b in args.beams for a in (args.alphas if b > 1 else [0.0])]
    settings, outputs = [], []
    for beam, alpha in grid:
        hypotheses, seconds = decode(translator, sources, target, beam, alpha)
        outputs.append(hypotheses)
        row = {"beam": beam, "alpha": alpha if beam > 1 else None, "seconds": round(seconds, 2)}
        settings.append(row | scored(hypotheses, refs, target))
        print(
            f"beam {beam} α {row['alpha']}: BLEU {settings[-1]['bleu']:.2f} chrF "
            f"{settings[-1]['chrf']:.2f} BP {settings[-1]['bp']:.3f} ({seconds:.0f} s)"
        )
    top = max(range(len(settings)), key=lambda i: settings[i]["bleu"])
    best = settings[top]
    thirds = by_length(translator, sources, outputs[top], refs, target)
    for part in thirds:
        print(f"sources of {part['source_tokens']} tokens: BLEU {part['bleu']:.2f}")
    emit(
        {
            "benchmark": "decode_search",
            "model": args.model or "bundled",
            "src": args.src,
            "to": target,
            "sentences": len(sources),
            "settings": settings,
            "best": {"beam": best["beam"], "alpha": best["alpha"], "bleu": best["bleu"]},
            "by_source_length": thirds,
            "threads": args.threads,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

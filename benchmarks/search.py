"""What the search's settings give in quality: BLEU, chrF and length of one model's translations
under each setting, one command per measure. Ends with one JSON line.

    python benchmarks/search.py grid [MODEL] --src test.zh --ref test.en \\
        [--beams 1,4,5] [--alphas 0.6,1.0,1.5] [--threads 2] [--limit 1000]
    python benchmarks/search.py rerank [MODEL] [--data data/tatoeba-bi] [--split test] \\
        [--weight λ] [--dtype fp32] [--limit N] [--threads 1]
    python benchmarks/search.py length [-m MODEL] [--sources data/sources] [--lines 300]

- ``grid``: greedy search once (it has no α), then each (beam, α) of a grid (α: GNMT's length
  penalty, Wu et al. 2016, §7; docs/decoding.md); then the best setting's BLEU by source length,
  in thirds. MODEL defaults to the bundled model.
- ``rerank``: what reranking by the backward score buys and costs, on every direction of a
  bidirectional model's split: its beam's own order (λ 0) against reranked (λ: the model's
  ``rerank_backward``, or ``--weight``), with seconds. MODEL defaults to zh-en.
- ``length``: is the short output of news into Chinese the search's or the model's? The first
  ``--lines`` English lines of newstest2017 (the dev split ``fanyi data wmt-news`` writes) into
  Chinese with the model's own settings, then with each lever: α larger (``--alphas``); λ
  (``--lambdas``, 0 = the beam's own order); GNMT's coverage penalty (Wu et al. 2016, eq. 14),
  cp = β Σ_i log min(Σ_j a_ij, 1) over the source pieces i (the last decoder layer's attention,
  mean over heads), added to the score of every hypothesis of the beam, λ 0 (``--coverage``
  βs); an EOS floor: a one-sentence line whose translation holds fewer pieces than r × (the
  references' Chinese pieces per English piece) × its own is translated again with EOS
  forbidden until then (``--floors`` r). A lever that lengthens the output by padding it raises
  the ratio and lowers chrF.
"""

from __future__ import annotations

import argparse
import functools
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from common import (
    emit,
    emit_off_and_on,
    machine,
    off_and_on_arguments,
    off_and_on_translator,
    read_lines,
    scored,
    translated_scores,
)
from fanyi.data.manifest import read_pairs
from fanyi.runtime import set_threads
from fanyi.text.lang import split_sentences
from fanyi.translate.model_names import TATOEBA
from fanyi.translate.translation import Candidate
from fanyi.translate.translator import Translator

T = TypeVar("T")


def comma_separated(kind: Callable[[str], T]) -> Callable[[str], list[T]]:
    """An argument type: a comma-separated list of ``kind``."""
    return lambda text: [kind(x) for x in text.split(",")]


def timed(make) -> tuple[list[str], float]:
    """``make()`` and the seconds it took."""
    start = time.perf_counter()
    return make(), round(time.perf_counter() - start, 2)


# grid -------------------------------------------------------------------------------------------
def by_length(
    translator: Translator, sources: list[str], hypotheses: list[str], refs: list[str], to: str
) -> list[dict]:
    """BLEU of the shortest, middle and longest third of the sources (in subword tokens)."""
    lengths = translator.token_counts(sources, to)
    order = sorted(range(len(sources)), key=lengths.__getitem__)
    thirds = [order[k * len(order) // 3 : (k + 1) * len(order) // 3] for k in range(3)]
    return [
        {
            "sentences": len(part),
            "source_tokens": [lengths[part[0]], lengths[part[-1]]],
            **scored([hypotheses[i] for i in part], [refs[i] for i in part], to),
        }
        for part in thirds
        if part
    ]


def grid(args: argparse.Namespace) -> None:
    sources, refs = read_lines(args.src, args.limit), read_lines(args.ref, args.limit)
    if len(sources) != len(refs):
        raise SystemExit(f"{args.src} has {len(sources)} lines, {args.ref} {len(refs)}")
    set_threads(args.threads)
    translator = Translator.load(args.model)
    to = translator.text.languages.target_of(sources[0], args.to)
    settings, outputs = [], []
    for beam, alpha in [(b, a) for b in args.beams for a in (args.alphas if b > 1 else [0.0])]:
        run = functools.partial(translator, sources, to=to, beam=beam, length_penalty=alpha)
        out, seconds = timed(run)
        outputs.append(out)
        row = {"beam": beam, "alpha": alpha if beam > 1 else None, "seconds": seconds}
        settings.append(row | scored(out, refs, to))
        s = settings[-1]
        print(f"beam {beam} α {row['alpha']}: BLEU {s['bleu']:.2f} chrF {s['chrf']:.2f} "
              f"BP {s['bp']:.3f} ({seconds:.0f} s)")  # fmt: skip
    top = max(range(len(settings)), key=lambda i: settings[i]["bleu"])
    thirds = by_length(translator, sources, outputs[top], refs, to)
    for part in thirds:
        print(f"sources of {part['source_tokens']} tokens: BLEU {part['bleu']:.2f}")
    best = {key: settings[top][key] for key in ("beam", "alpha", "bleu")}
    emit({"benchmark": "search", "measure": "grid", "model": args.model or "bundled",
          "src": args.src, "to": to, "sentences": len(sources), "settings": settings,
          "best": best, "by_source_length": thirds, "threads": args.threads,
          "machine": machine()})  # fmt: skip


# rerank -----------------------------------------------------------------------------------------
def rerank(args: argparse.Namespace) -> None:
    set_threads(args.threads)
    changes = {} if args.weight is None else {"rerank_backward": args.weight}
    reranked = Translator.load(args.model, dtype=args.dtype, **changes)
    weight = reranked.options.rerank_backward
    if weight <= 0:
        raise SystemExit("the model does not rerank: give --weight")
    plain = Translator.load(args.model, dtype=args.dtype, rerank_backward=0)
    results = {}
    for to in reranked.targets:
        pairs = read_pairs(args.data, args.split, to)
        sources, refs = pairs.sources[: args.limit], pairs.references[: args.limit]
        beam = translated_scores(plain, sources, refs, to)
        ranked = translated_scores(reranked, sources, refs, to)
        results[to] = {"beam": beam, "reranked": ranked}
        print(f"→{to}: BLEU {beam['bleu']:.2f} → {ranked['bleu']:.2f}, chrF {beam['chrf']:.2f} → "
              f"{ranked['chrf']:.2f}, length ratio {beam['length_ratio']:.3f} → "
              f"{ranked['length_ratio']:.3f}, time x{ranked['seconds'] / beam['seconds']:.2f}")  # fmt: skip
    emit({"benchmark": "search", "measure": "rerank", "machine": machine(), "model": args.model,
          "split": args.split, "dtype": args.dtype, "weight": weight, "threads": args.threads,
          "results": results})  # fmt: skip


# length -----------------------------------------------------------------------------------------
def coverage(candidate: Candidate) -> float:
    """Σ_i log min(Σ_j a_ij, 1) over the source's pieces i, its tag and EOS aside."""
    assert candidate.attention is not None
    received = candidate.attention[:, 1:-1].sum(dim=0)
    return sum(math.log(min(max(float(a), 1e-6), 1.0)) for a in received)


def by_coverage(found: list, beta: float) -> list[str]:
    """Each line's candidate with the best score + β·cp (a line of several sentences: as is)."""
    return [
        max(t.candidates, key=lambda c: c.score + beta * coverage(c)).text
        if t.candidates[0].attention is not None
        else t.text
        for t in found
    ]


def floored(translator: Translator, sources: list[str], free: list[str], floor: float) -> list[str]:
    """``free``, each one-sentence line with fewer pieces than ``floor`` × its source's translated
    again with EOS forbidden until then."""
    floors = [int(floor * n) for n in translator.token_counts(sources, "zh")]
    have = translator.token_counts(free, "en")
    out = []
    for source, text, floor, n in zip(sources, free, floors, have, strict=True):
        again = len(split_sentences(source, "en")) == 1 and n - 2 < floor  # tag and EOS
        out.append(translator(source, to="zh", min_len=floor) if again else text)
    return out


def length_levers(translator: Translator, sources: list[str], per_piece: float, args) -> dict:
    """Every lever's outputs and seconds, by name (``per_piece``: the references' Chinese pieces
    per English piece)."""
    runs = {"as stored": timed(lambda: translator(sources, to="zh"))}
    for alpha in args.alphas:
        runs[f"α {alpha}"] = timed(lambda a=alpha: translator(sources, to="zh", length_penalty=a))
    for weight in args.lambdas:
        runs[f"λ {weight}"] = timed(
            lambda w=weight: translator(sources, to="zh", rerank_backward=w)
        )
    beam = translator.options.beam
    wide, seconds = timed(
        lambda: translator.translate(
            sources, to="zh", n_best=beam, attention=True, rerank_backward=0.0
        )
    )
    for beta in args.coverage:  # one search for all βs: each row shows its seconds
        runs[f"coverage β {beta} (λ 0)"] = by_coverage(wide, beta), seconds
    free = runs["as stored"][0]
    for r in args.floors:
        runs[f"EOS floor r {r}"] = timed(
            lambda r=r: floored(translator, sources, free, r * per_piece)
        )
    return runs


def length(args: argparse.Namespace) -> None:
    rows = [line.split("\t") for line in read_lines(str(Path(args.sources, "wmt-news", "dev.tsv")))]
    sources, refs = [r[0] for r in rows[: args.lines]], [r[1] for r in rows[: args.lines]]
    translator = off_and_on_translator(args)
    pieces = translator.token_counts(refs, "en"), translator.token_counts(sources, "zh")
    per_piece = sum(pieces[0]) / sum(pieces[1])
    results = {}
    print("| lever | BLEU | chrF | length ratio | seconds |\n| --- | ---: | ---: | ---: | ---: |")
    for name, (outputs, seconds) in length_levers(translator, sources, per_piece, args).items():
        results[name] = {**scored(outputs, refs, "zh"), "seconds": seconds}
        s = results[name]
        print(f"| {name} | {s['bleu']} | {s['chrf']} | {s['length_ratio']} | {seconds} |")
    settings = {"lines": len(sources), "zh_pieces_per_en_piece": round(per_piece, 3)}
    emit_off_and_on("search", args, results, measure="length", **settings)


# the command ------------------------------------------------------------------------------------
def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measures = parser.add_subparsers(dest="measure", required=True)
    one = measures.add_parser("grid", help="beam size and length penalty against BLEU")
    one.add_argument("model", nargs="?", help="model directory (default: bundled)")
    one.add_argument("--src", required=True, help="source sentences, one a line")
    one.add_argument("--ref", required=True, help="reference translations")
    one.add_argument("--to", help="target language (default: detected)")
    one.add_argument(
        "--beams", type=comma_separated(int), default=[1, 4, 5], help="comma-separated"
    )
    one.add_argument(
        "--alphas", type=comma_separated(float), default=[0.6, 1.0, 1.5], help="comma-sep."
    )
    one.add_argument("--threads", type=int, default=2)
    one.add_argument("--limit", type=int, help="only the first N sentences")
    one = measures.add_parser("rerank", help="the beam's own order against reranked")
    one.add_argument("model", nargs="?", default=str(TATOEBA), help="default: zh-en")
    one.add_argument("--data", default="data/tatoeba-bi", help="a fanyi prepare directory")
    one.add_argument("--split", default="test")
    one.add_argument("--weight", type=float, help="λ (default: the model's rerank_backward)")
    one.add_argument("--dtype", default="fp32", help="decoding dtype (default fp32)")
    one.add_argument("--limit", type=int, help="the first N pairs of each direction")
    one.add_argument("--threads", type=int, default=1)
    one = measures.add_parser("length", help="levers on the length of news into Chinese")
    off_and_on_arguments(one)
    one.add_argument("--lines", type=int, default=300)
    one.add_argument("--alphas", type=float, nargs="*", default=[5.0, 8.0])
    one.add_argument("--lambdas", type=float, nargs="*", default=[0.0, 1.0])
    one.add_argument("--coverage", type=float, nargs="*", default=[0.0, 0.2, 1.0])
    one.add_argument("--floors", type=float, nargs="*", default=[0.75, 0.9])
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    {"grid": grid, "rerank": rerank, "length": length}[args.measure](args)


if __name__ == "__main__":
    main()

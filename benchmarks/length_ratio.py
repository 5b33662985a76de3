"""Decoding levers on the length of translations into Chinese (issue 33: news into Chinese comes
out short, length ratio 0.86-0.89 against ≥ 0.90). Is the short output the search's, or the
model's?

Takes the first ``--lines`` English lines of newstest2017 (the dev split ``fanyi data
wmt-news`` writes, ``dev.tsv``: choose on this one) and translates them into Chinese with the
model's own settings, then with each lever:

- α: GNMT's length penalty, larger (``--alphas``);
- λ: the weight of the backward reranking (``--lambdas``; 0 = the beam's own order);
- coverage: GNMT's coverage penalty (Wu et al. 2016, eq. 14), cp = β Σ_i log min(Σ_j a_ij, 1)
  over the source pieces i (the last decoder layer's attention, mean over heads), added to the
  score of every hypothesis of the beam (λ 0): ``--coverage`` βs;
- EOS floor: a one-sentence line whose translation holds fewer pieces than r × (the
  references' Chinese pieces per English piece) × its own is translated again with EOS
  forbidden until then (``min_len``): ``--floors`` r.

BLEU, chrF, length ratio (sacreBLEU) and seconds for each. A lever that lengthens the output by
padding it raises the ratio and lowers chrF. Ends with one JSON line.

    python benchmarks/length_ratio.py [-m MODEL] [--sources data/sources] [--lines 300]
"""

from __future__ import annotations

import math
import time
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.lang import split_sentences
from fanyi.translate.translation import Candidate
from fanyi.translate.translator import Translator


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


def timed(make) -> tuple[list[str], float]:
    """``make()`` and the seconds it took."""
    start = time.perf_counter()
    return make(), round(time.perf_counter() - start, 2)


def levers(translator: Translator, sources: list[str], per_piece: float, args) -> dict:
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


def main() -> None:
    parser = off_and_on_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--alphas", type=float, nargs="*", default=[5.0, 8.0])
    parser.add_argument("--lambdas", type=float, nargs="*", default=[0.0, 1.0])
    parser.add_argument("--coverage", type=float, nargs="*", default=[0.0, 0.2, 1.0])
    parser.add_argument("--floors", type=float, nargs="*", default=[0.75, 0.9])
    args = parser.parse_args()
    rows = [line.split("\t") for line in read_lines(str(Path(args.sources, "wmt-news", "dev.tsv")))]
    sources, refs = [r[0] for r in rows[: args.lines]], [r[1] for r in rows[: args.lines]]
    translator = off_and_on_translator(args)
    pieces = translator.token_counts(refs, "en"), translator.token_counts(sources, "zh")
    per_piece = sum(pieces[0]) / sum(pieces[1])
    results = {}
    print("| lever | BLEU | chrF | length ratio | seconds |\n| --- | ---: | ---: | ---: | ---: |")
    for name, (outputs, seconds) in levers(translator, sources, per_piece, args).items():
        results[name] = {**scored(outputs, refs, "zh"), "seconds": seconds}
        s = results[name]
        print(f"| {name} | {s['bleu']} | {s['chrf']} | {s['length_ratio']} | {seconds} |")
    settings = {"lines": len(sources), "zh_pieces_per_en_piece": round(per_piece, 3)}
    emit_off_and_on("length_ratio", args, results, **settings)


if __name__ == "__main__":
    main()

"""What reranking by the backward score buys and costs: BLEU, chrF, length ratio and seconds of a
bidirectional model on a split's every direction, with its beam's own order (λ 0) and reranked
(λ: the model's ``rerank_backward``, or ``--weight``), one after the other in one process. Ends
with one JSON line.

    python benchmarks/rerank.py                       # the bundled model, the test split
    python benchmarks/rerank.py MODEL --data DIR --split dev --weight 0.5 --limit 200
"""

from __future__ import annotations

import argparse

from common import emit, machine, translated_scores
from fanyi.data.manifest import read_pairs
from fanyi.runtime import set_threads
from fanyi.translate.model_names import TATOEBA
from fanyi.translate.translator import Translator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "model", nargs="?", default=str(TATOEBA), help="model directory (default: zh-en)"
    )
    parser.add_argument("--data", default="data/tatoeba-bi", help="a fanyi prepare directory")
    parser.add_argument("--split", default="test")
    parser.add_argument("--weight", type=float, help="λ (default: the model's rerank_backward)")
    parser.add_argument("--dtype", default="fp32", help="decoding dtype (default fp32)")
    parser.add_argument("--limit", type=int, help="the first N pairs of each direction")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    set_threads(args.threads)
    reranked = Translator.load(args.model, dtype=args.dtype)
    if args.weight is not None:
        reranked = Translator.load(args.model, dtype=args.dtype, rerank_backward=args.weight)
    weight = reranked.options.rerank_backward
    if weight <= 0:
        parser.error("the model does not rerank: give --weight")
    plain = Translator.load(args.model, dtype=args.dtype, rerank_backward=0)
    results = {}
    for to in reranked.targets:
        pairs = read_pairs(args.data, args.split, to)
        sources, refs = pairs.sources[: args.limit], pairs.references[: args.limit]
        results[to] = {
            "beam": translated_scores(plain, sources, refs, to),
            "reranked": translated_scores(reranked, sources, refs, to),
        }
        beam, ranked = results[to]["beam"], results[to]["reranked"]
        print(
            f"→{to}: BLEU {beam['bleu']:.2f} → {ranked['bleu']:.2f}, chrF {beam['chrf']:.2f} → "
            f"{ranked['chrf']:.2f}, length ratio {beam['length_ratio']:.3f} → "
            f"{ranked['length_ratio']:.3f}, time x{ranked['seconds'] / beam['seconds']:.2f}"
        )
    emit({"benchmark": "rerank", "machine": machine(), "model": args.model, "split": args.split,
          "dtype": args.dtype, "weight": weight, "threads": args.threads, "results": results})  # fmt: skip


if __name__ == "__main__":
    main()

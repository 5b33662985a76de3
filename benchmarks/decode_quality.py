"""What bf16 and int8 decoding cost in quality: BLEU and chrF of a trained model in fp32, bf16
and int8 on a test split, with the decoding time of each. Ends with one JSON line.

    python benchmarks/decode_quality.py MODEL_DIR --src test.zh --ref test.en [--beam 5] [--limit 1000]
"""

from __future__ import annotations

import argparse

from common import emit, machine, read_lines, translated_scores
from fanyi.runtime import set_threads
from fanyi.translate.translator import Translator

DTYPES = ("fp32", "bf16", "int8")


def measure(
    model_dir: str, dtype: str, sources: list[str], refs: list[str], args: argparse.Namespace
) -> dict:
    """Translate ``sources`` with the model in ``dtype``; BLEU, chrF, length ratio and seconds."""
    translator = Translator.load(model_dir, dtype=dtype, beam=args.beam)
    target = args.to or translator.text.languages.target_of(sources[0])
    return translated_scores(translator, sources, refs, target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("--src", required=True, help="test sources, one per line")
    parser.add_argument("--ref", required=True, help="references, one per line")
    parser.add_argument("--to", default=None, help="target language (default: detected)")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="first N lines only")
    args = parser.parse_args()
    sources, refs = read_lines(args.src, args.limit), read_lines(args.ref, args.limit)
    set_threads(args.threads)
    results = {dtype: measure(args.model_dir, dtype, sources, refs, args) for dtype in DTYPES}
    print(f"| dtype | BLEU | ΔBLEU | chrF | seconds ({len(sources)} lines, beam {args.beam}) |")
    print("| --- | --- | --- | --- | --- |")
    for dtype, r in results.items():
        delta = r["bleu"] - results["fp32"]["bleu"]
        print(
            f"| {dtype} | {r['bleu']:.2f} | {delta:+.2f} | {r['chrf']:.2f} | {r['seconds']:.1f} |"
        )
    emit(
        {
            "benchmark": "decode_quality",
            "machine": machine(),
            "model_dir": args.model_dir,
            "lines": len(sources),
            "beam": args.beam,
            "threads": args.threads,
            "results": results,
        }
    )


if __name__ == "__main__":
    main()

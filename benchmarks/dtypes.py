"""What each decoding dtype (fp32, bf16, int8) gives: its speed, the choice of ``--dtype auto``,
and its cost in quality. Ends with one JSON line.

    python benchmarks/dtypes.py speed [MODEL_DIR] --src test.zh [--threads 1,2] [--beam 5]
    python benchmarks/dtypes.py quality MODEL_DIR --src test.zh --ref test.en [--beam 5] \\
        [--limit 1000]

- ``speed``: does ``--dtype auto`` (the default) pick a dtype never slower than fp32 on this
  host? Translates the same sources end to end (``Translator.translate``: text in, text out) in
  fp32, bf16 and int8, interleaved, on 1 and 2 threads, and with ``auto``: the dtype it chose
  (timed afresh, with an empty cache) and how long choosing took. MODEL_DIR defaults to the
  bundled model.
- ``quality``: BLEU and chrF of a trained model in fp32, bf16 and int8 on a test split, with
  the decoding time of each.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from common import emit, interleaved, machine, read_lines, translated_scores
from fanyi.runtime import set_threads
from fanyi.translate.translator import Translator

DTYPES = ("fp32", "bf16", "int8")


def speeds(args: argparse.Namespace, sources: list[str], threads: int) -> dict:
    """Seconds per translation of ``sources`` for every dtype, and auto's choice, on ``threads``."""
    set_threads(threads)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["FANYI_CACHE"] = cache  # auto times afresh
        start = time.perf_counter()
        auto = Translator.load(args.model_dir, beam=args.beam, dtype="auto")
        choosing = time.perf_counter() - start
    loaded = {d: Translator.load(args.model_dir, beam=args.beam, dtype=d) for d in DTYPES}
    runs = {d: (lambda t=t: t(sources)) for d, t in loaded.items()}
    seconds = interleaved(runs, args.rounds)
    chosen = auto.engine.options.dtype
    return {
        "threads": threads,
        "seconds": {d: round(s, 3) for d, s in seconds.items()},
        "speed_over_fp32": {d: round(seconds["fp32"] / s, 3) for d, s in seconds.items()},
        "auto": chosen,
        "auto_over_fp32": round(seconds["fp32"] / seconds[chosen], 3),
        "auto_fastest": chosen == min(seconds, key=seconds.__getitem__),
        "load_seconds_auto": round(choosing, 2),
    }


def speed(args: argparse.Namespace) -> None:
    sources = read_lines(args.src, args.limit)
    results = [speeds(args, sources, int(t)) for t in args.threads.split(",")]
    print(f"{len(sources)} sentences, beam {args.beam}; speed over fp32 (auto's choice in [ ])")
    for r in results:
        cells = [f"{d} {r['speed_over_fp32'][d]:.2f}x" for d in DTYPES]
        print(f"{r['threads']} thread(s): {', '.join(cells)}  [auto: {r['auto']}]")
    emit({"benchmark": "dtypes", "measure": "speed", "machine": machine(),
          "model_dir": args.model_dir or "bundled", "sentences": len(sources), "beam": args.beam,
          "results": results,
          "auto_never_slower": all(r["auto_over_fp32"] >= 0.95 for r in results)})  # fmt: skip


def scores(model_dir: str, dtype: str, sources: list[str], refs: list[str], args) -> dict:
    """Translate ``sources`` with the model in ``dtype``; BLEU, chrF, length ratio and seconds."""
    translator = Translator.load(model_dir, dtype=dtype, beam=args.beam)
    target = args.to or translator.text.languages.target_of(sources[0])
    return translated_scores(translator, sources, refs, target)


def quality(args: argparse.Namespace) -> None:
    sources, refs = read_lines(args.src, args.limit), read_lines(args.ref, args.limit)
    set_threads(args.threads)
    results = {dtype: scores(args.model_dir, dtype, sources, refs, args) for dtype in DTYPES}
    print(f"| dtype | BLEU | ΔBLEU | chrF | seconds ({len(sources)} lines, beam {args.beam}) |")
    print("| --- | --- | --- | --- | --- |")
    for dtype, r in results.items():
        delta = r["bleu"] - results["fp32"]["bleu"]
        print(
            f"| {dtype} | {r['bleu']:.2f} | {delta:+.2f} | {r['chrf']:.2f} | {r['seconds']:.1f} |"
        )
    emit({"benchmark": "dtypes", "measure": "quality", "machine": machine(),
          "model_dir": args.model_dir, "lines": len(sources), "beam": args.beam,
          "threads": args.threads, "results": results})  # fmt: skip


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measures = parser.add_subparsers(dest="measure", required=True)
    one = measures.add_parser("speed", help="each dtype's speed over fp32, and auto's choice")
    one.add_argument("model_dir", nargs="?", default=None, help="default: the bundled model")
    one.add_argument("--src", required=True, help="sources, one per line")
    one.add_argument("--limit", type=int, default=300, help="first N lines (default 300)")
    one.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    one.add_argument("--beam", type=int, default=5)
    one.add_argument("--rounds", type=int, default=3)
    one = measures.add_parser("quality", help="each dtype's BLEU and chrF on a test split")
    one.add_argument("model_dir")
    one.add_argument("--src", required=True, help="test sources, one per line")
    one.add_argument("--ref", required=True, help="references, one per line")
    one.add_argument("--to", default=None, help="target language (default: detected)")
    one.add_argument("--beam", type=int, default=5)
    one.add_argument("--threads", type=int, default=1)
    one.add_argument("--limit", type=int, default=None, help="first N lines only")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    {"speed": speed, "quality": quality}[args.measure](args)


if __name__ == "__main__":
    main()

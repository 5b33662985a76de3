"""Does ``--dtype auto`` (the default) pick a dtype that is never slower than fp32 on this host?

Translates the same sources end to end (``Translator.translate``: text in, text out) in fp32,
bf16 and int8, interleaved, on 1 and 2 threads, and with ``auto``: the dtype it chose (timed
afresh, with an empty cache) and how long choosing took. Prints each dtype's speed over fp32,
and ends with one JSON line.

    python benchmarks/dtype_auto.py [MODEL_DIR] --src test.zh [--threads 1,2] [--beam 5]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from common import emit, interleaved, machine, read_lines
from fanyi.runtime import set_threads
from fanyi.translate.translator import Translator

DTYPES = ("fp32", "bf16", "int8")


def run_threads(args: argparse.Namespace, sources: list[str], threads: int) -> dict:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir", nargs="?", default=None, help="default: the bundled model")
    parser.add_argument("--src", required=True, help="sources, one per line")
    parser.add_argument("--limit", type=int, default=300, help="first N lines (default 300)")
    parser.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sources = read_lines(args.src, args.limit)
    results = [run_threads(args, sources, int(t)) for t in args.threads.split(",")]
    print(f"{len(sources)} sentences, beam {args.beam}; speed over fp32 (auto's choice in [ ])")
    for r in results:
        cells = [f"{d} {r['speed_over_fp32'][d]:.2f}x" for d in DTYPES]
        print(f"{r['threads']} thread(s): {', '.join(cells)}  [auto: {r['auto']}]")
    emit(
        {
            "benchmark": "dtype_auto",
            "machine": machine(),
            "model_dir": args.model_dir or "bundled",
            "sentences": len(sources),
            "beam": args.beam,
            "results": results,
            "auto_never_slower": all(r["auto_over_fp32"] >= 0.95 for r in results),
        }
    )


if __name__ == "__main__":
    main()

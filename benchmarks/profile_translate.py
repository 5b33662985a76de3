"""Where a translator's time goes: ``fanyi.Translator`` on lines of a file under cProfile, in one
process, after three lines to warm it. Prints the functions with most time of their own, then one
JSON line: CPU seconds, and the seconds of the model's main kernels (int8 products, cache
reordering, attention products, log-softmax) and of the held search.

    python benchmarks/profile_translate.py DIR/source.en --to en --lines 200 [--set hold_names=false]

The input is any file of lines: ``benchmarks/shipped.py --outputs DIR`` writes its test mix as
``DIR/source.en`` and ``DIR/source.zh``. ``--set KEY=VALUE`` (repeatable) passes an option to the
call, as the flags of ``fanyi translate`` do (``hold_names=false``, ``allowed_softmax=true``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from common import emit, machine
from fanyi import Translator
from fanyi.runtime import set_threads

KERNELS = {  # a name in the report → what cProfile calls it (<…> where its report writes {…})
    "int8_products": "<built-in method torch._int_mm>",
    "cache_reordering": "<built-in method torch.index_select>",
    "attention_qk": "<built-in method torch.baddbmm>",
    "attention_v": "<built-in method torch.bmm>",
    "log_softmax": "<method 'log_softmax' of 'torch._C.TensorBase' objects>",
}
HELD = "held_batch.py"  # the held search: constrained_searches' total


def value(text: str) -> object:
    """A ``--set`` value as the flags read it: true/false, a number, or text."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def seconds_of(stats: pstats.Stats) -> dict[str, float]:
    """The own seconds of each of KERNELS, and the held search's total."""
    table = stats.stats  # type: ignore[attr-defined]  # (file, line, name) → (cc, nc, tt, ct, callers)
    found: dict[str, float] = {}
    for (path, _, name), (_, _, own, total, _) in table.items():
        label = name if path == "~" else f"{Path(path).name}:{name}"
        for key, wanted in KERNELS.items():
            if label == wanted:
                found[key] = round(found.get(key, 0.0) + own, 2)
        if label == f"{HELD}:constrained_searches":
            found["held_search"] = round(total, 2)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path, help="a file of lines to translate")
    parser.add_argument("--to", required=True, help="target language")
    parser.add_argument("--lines", type=int, default=200, help="the first N lines (default 200)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], help="KEY=VALUE, an option")
    parser.add_argument("--top", type=int, default=20, help="functions printed (default 20)")
    args = parser.parse_args()
    set_threads(args.threads)
    changes = {key: value(text) for key, _, text in (s.partition("=") for s in args.set)}
    lines = args.input.read_text(encoding="utf-8").splitlines()[: args.lines]
    translator = Translator.load()
    translator(lines[:3], to=args.to, **changes)
    profile, start = cProfile.Profile(), time.process_time()
    profile.runcall(translator, lines, to=args.to, **changes)
    cpu = time.process_time() - start
    stats = pstats.Stats(profile).sort_stats("tottime")
    stats.print_stats(args.top)
    emit({"benchmark": "profile_translate", "lines": len(lines), "to": args.to,
          "settings": changes, "cpu_seconds": round(cpu, 2), "seconds": seconds_of(stats),
          "threads": args.threads, "machine": machine()})  # fmt: skip


if __name__ == "__main__":
    main()

"""Translation quality you can reproduce: ``fanyi recipe`` plus the host it ran on, one JSON line.

    python benchmarks/quality.py RECIPE [--budget-minutes M | --max-steps N] [--threads T] [--out DIR]

Runs the recipe exactly as ``fanyi recipe`` does (prepare → train within the budget → average the
k ≤ K checkpoints best on dev → beam-search and score each test set; ``fanyi.recipe``), after
measuring the host's matmul speed: hosts of one type differ by 2× and more, and with them the
steps an hour buys. See docs/quality.md.
"""

from __future__ import annotations

import sys

import sacrebleu
import sentencepiece

import fanyi
from common import emit, machine, matmul_gflops
from fanyi.cli import build_parser
from fanyi.cli.recipe import options
from fanyi.recipe import run_recipe
from fanyi.runtime import set_threads


def main() -> None:
    args = build_parser("recipe").parse_args(["recipe", *sys.argv[1:]])
    chosen = options(args)
    set_threads(chosen.threads)
    host = machine() | {"matmul_gflops": matmul_gflops(chosen.threads)}
    print(
        f"host: {host['cpu']}, matmul GFLOP/s on {chosen.threads} threads: {host['matmul_gflops']}"
    )
    result = run_recipe(args.recipe, chosen)
    versions = {
        "fanyi": fanyi.__version__,
        "sacrebleu": sacrebleu.__version__,
        "sentencepiece": sentencepiece.__version__,
    }
    emit({"benchmark": "quality", **result, "machine": host, "versions": versions})


if __name__ == "__main__":
    main()

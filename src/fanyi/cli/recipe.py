"""``fanyi recipe RECIPE [--budget-minutes M | --max-steps N] ...``: prepare → train within a
budget → average (k chosen on dev) → score each direction, ending with one JSON line."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from .flags import deprecated, switch

if TYPE_CHECKING:
    from ..recipe import RunOptions


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recipe",
        help="train and score a recipe of configs/recipes/ within a time budget",
        description=__doc__,
    )
    parser.add_argument("recipe", metavar="RECIPE", help="a name in configs/recipes/, or a file")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--budget-minutes", type=float, help="wall-clock training budget")
    budget.add_argument("--max-steps", type=int, help="a step budget instead (smoke runs)")
    parser.add_argument(
        "--threads", type=int, default=0, help="training and decoding threads (0: every core)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="OUT", help="write OUT/data and OUT/run instead"
    )
    deprecated(parser, "--out", "-o/--output", "output", convert=Path)
    parser.add_argument("--test-limit", type=int, help="score the first N pairs of each test set")
    switch(parser, "--rescore", "no training: average and score the run there")
    switch(parser, "--progress", "progress bars", default=True)
    parser.set_defaults(func=run)


def options(args: argparse.Namespace) -> RunOptions:
    """The run's options from the parsed flags (threads: every core for 0)."""
    from ..precision import cores
    from ..recipe import RunOptions

    return RunOptions(
        budget_minutes=args.budget_minutes,
        max_steps=args.max_steps,
        threads=args.threads or cores(),
        out=args.output,
        test_limit=args.test_limit,
        rescore=args.rescore,
        progress=args.progress,
    )


def run(args: argparse.Namespace) -> int:
    from ..recipe import as_json, run_recipe
    from ..runtime import set_threads

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    chosen = options(args)
    set_threads(chosen.threads)
    print(as_json(run_recipe(args.recipe, chosen)))
    return 0

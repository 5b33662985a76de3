"""``fanyi demo``: train the copy task and show greedy decoding."""

from __future__ import annotations

import argparse

from .. import config
from ..copy_task.config import CopyTaskConfig


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="train the copy task in about a minute and decode it"
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="intra-op threads (default: all cores)"
    )
    config.add_arguments(parser, CopyTaskConfig)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..copy_task.task import run_demo
    from ..runtime import set_threads

    set_threads(args.threads)
    rate = run_demo(config.from_arguments(CopyTaskConfig, args))
    return 0 if rate >= 0.99 else 1

"""``fanyi ensemble A B [C …] -o OUT``: put trained models together as one ensemble directory."""

from __future__ import annotations

import argparse

from .flags import switch


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ensemble",
        help="combine trained models into one ensemble that translates by their mean prediction",
        description="Copy two or more models (model directories, or runs: their best checkpoint) "
        "into one ensemble directory. Translating with it, each step takes the mean of the "
        "members' next-token distributions (decode/ensemble.py): better translations, for one "
        "decoding pass per member. Members must share the vocabularies and languages. Tune its "
        "decoding defaults with `fanyi tune -m OUT`.",
    )
    parser.add_argument("models", nargs="+", metavar="MODEL", help="model or run directories")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="directory to write")
    switch(
        parser, "--overwrite", "replace the fanyi model already at the output (never anything else)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..ensemble_dir import write_ensemble_dir

    print(write_ensemble_dir(args.models, args.output, args.overwrite))
    return 0

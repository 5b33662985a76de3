"""``fanyi truecase FILE … -m MODEL``: the words a model's training text writes in lower case, as
the model's ``truecase.txt``, so that it reads headlines in sentence case (``recase.py``). A model
trained on a data directory that ``fanyi prepare`` wrote since has one already."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..filenames import CONFIG_FILE, TRUECASE_FILE
from ..text.recase import write_table
from ..translate.model_names import resolve_model_dir


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "truecase",
        help="list the words the training text writes in lower case, for reading headlines",
        description="Count how each word is written inside the sentences of FILE (one sentence a "
        "line, a leading <2xx> tag ignored; lines without Latin letters count for nothing) and "
        "write the words mostly written in lower case to the model directory's truecase.txt. "
        "Translating, a source in Title Case is then read in sentence case: those words in lower "
        "case, names as written (`recase_headlines`, docs/decoding.md).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="the model's training text")
    parser.add_argument("-m", "--model", required=True, metavar="DIR", help="model directory")
    parser.add_argument(
        "--min-count", type=int, default=2, help="times a word must be seen (default 2)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    model = resolve_model_dir(args.model)
    if not (model / CONFIG_FILE).is_file():
        raise FileNotFoundError(f"{model}: not a fanyi model directory (no {CONFIG_FILE})")
    count = write_table(model / TRUECASE_FILE, [Path(f) for f in args.files], args.min_count)
    print(f"{model / TRUECASE_FILE}: {count} words")
    return 0

"""``fanyi truecase FILE … -m MODEL``: the words a model's training text writes in lower case, as
the model's ``truecase.txt``, so that it reads headlines in sentence case (``recase.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..atomic import write_text_atomic
from ..decode.model_names import resolve_model_dir
from ..filenames import CONFIG_FILE, TRUECASE_FILE
from ..lang import split_tag
from ..recase import lowercase_words


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
    lines = (split_tag(line)[1] for f in args.files for line in _lines(Path(f)))
    words = lowercase_words(lines, args.min_count)
    write_text_atomic(model / TRUECASE_FILE, "".join(f"{w}\n" for w in words))
    print(f"{model / TRUECASE_FILE}: {len(words)} words")
    return 0


def _lines(path: Path):
    with path.open(encoding="utf-8") as f:
        yield from f

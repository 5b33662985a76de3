"""``fanyi translate FILE -o OUT``: a document translated whole, its structure kept.

The format is chosen by FILE's extension or ``--format`` (``fanyi.documents.registry``):
Markdown, HTML, SubRip and WebVTT subtitles, plain text. The target language is ``--to``, else
the one the model translates the document's own text into. Every DecodeConfig key is a flag, as
for lines. ``-o`` is claimed before the model loads (an existing file is replaced only with
``--overwrite``) and written in one step at the end; without ``-o`` the document goes to stdout.
A file the format's parser refuses is one line naming it, and nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..documents.registry import FORMATS, format_for
from ..outputs import claim_file, write_file
from .formats import FORMAT_HELP as LINE_FORMAT_HELP
from .formats import FORMATS as LINE_FORMATS
from .progress import Progress

if TYPE_CHECKING:
    from ..translate.translator import Translator

_LINE_MODE = ("input", "text", "tsv", "constraints", "prefix", "constraint")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, ``--format`` and ``--overwrite`` on ``fanyi translate``'s parser."""
    parser.add_argument(
        "document",
        nargs="?",
        metavar="FILE",
        help="a document to translate whole, its format by extension (see --format)",
    )
    documents = "; ".join(f"{n}: {f.help}" for n, f in FORMATS.items())
    parser.add_argument(
        "--format",
        metavar="NAME",
        help=f"without FILE, what each line gives: {LINE_FORMAT_HELP}; with FILE, the "
        f"document's format (default: by its extension): {documents}",
    )
    parser.add_argument(
        "--overwrite",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="replace the -o file if it exists",
    )


def run(args: argparse.Namespace, load: Callable[[argparse.Namespace], Translator]) -> int:
    """Translate the document FILE into ``-o`` (or stdout); prints a summary on stderr."""
    from ..documents.api import read_document, translate_read_document  # torch: not for --help

    refused = [f"--{name.replace('_', '-')}" for name in _LINE_MODE if _given(args, name)]
    if refused:
        raise ValueError(
            f"{args.document}: a document is translated whole; drop {', '.join(refused)}"
        )
    if args.n_best not in (None, 1):
        raise ValueError(f"{args.document}: a document is translated whole; drop --n-best")
    if args.format in set(LINE_FORMATS) - set(FORMATS):
        raise ValueError(
            f"{args.document}: a document is written in its own format, not {args.format}"
        )
    format_for(args.document, args.format)  # refused before the output is claimed
    output = claim_file(args.output, args.overwrite) if args.output else None
    found, document = read_document(Path(args.document), args.format, args.document)
    translator = load(args)
    progress = Progress(None, total=None, unit="text")
    try:
        done = translate_read_document(translator, found, document, args.to, progress.done)
    finally:
        progress.close()
    if output is None:
        sys.stdout.buffer.write(done.data)
        sys.stdout.flush()
    else:
        write_file(output, done.data)
    print(done.summary(args.output or "stdout"), file=sys.stderr)
    return 1 if done.failed else 0


def _given(args: argparse.Namespace, name: str) -> bool:
    value = getattr(args, name, None)
    return value not in (None, False, [])

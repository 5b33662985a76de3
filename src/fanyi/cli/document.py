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
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..documents.registry import FORMATS, format_for
from ..documents.segment import Segment, plain
from ..inputs import read_bytes
from ..outputs import claim_file, write_file
from .formats import FORMAT_HELP as LINE_FORMAT_HELP
from .formats import FORMATS as LINE_FORMATS
from .progress import Progress

if TYPE_CHECKING:
    from ..documents.translating import DocumentReport
    from ..translate.translator import Translator

DOCUMENT_BYTES = 64 << 20  # the largest document read
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
    from ..documents.translating import translate_document  # torch: not for --help

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
    found = format_for(args.document, args.format)
    output = claim_file(args.output, args.overwrite) if args.output else None
    document = found.read(read_bytes(Path(args.document), DOCUMENT_BYTES), args.document)
    translator = load(args)
    to = args.to or target_of(document.segments, translator)
    progress = Progress(None, total=None, unit="text")
    try:
        data, report = translate_document(document, translator, to, progress.done)
    finally:
        progress.close()
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_file(output, data)
    print(summary(report, args.output or "stdout", found.name, to), file=sys.stderr)
    return 1 if report.failed else 0


def target_of(segments: list[Segment], translator: Translator) -> str:
    """The language the model translates the document's text into, read from its first words."""
    sample = " ".join(plain(segment) for segment in segments[:50])[:4000]
    return translator.text.languages.target_of(sample, None)


def summary(report: DocumentReport, output: str, name: str, to: str) -> str:
    """One line on what became of the document's segments."""
    return (
        f"{output}: {name} into {to}: {report.whole} of {report.segments} segments translated "
        f"whole, {report.piecewise} piece by piece around markup that could not be placed, "
        f"{report.failed} left as they were (failed); {json.dumps(report.to_dict())}"
    )


def _given(args: argparse.Namespace, name: str) -> bool:
    value = getattr(args, name, None)
    return value not in (None, False, [])

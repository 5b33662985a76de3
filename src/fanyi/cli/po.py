"""``fanyi po``: fill the untranslated entries of a gettext catalogue (``.po``) with translations.

Each entry with no translation yet (not fuzzy, not obsolete, not code only) is translated as
written, its reStructuredText inline markup (roles, literals, emphasis), which the translator
copies, set apart by spaces as reST needs, a literal block's ``::`` kept, and flagged ``fuzzy``
for a person to review; entries already translated stay as they are, and so does one whose
translation lost a format placeholder (``%s``, ``{name}``). The target language is ``--to``, else
the catalogue's ``Language`` header (``zh_CN`` → zh) where the model translates into it, else
the language the model translates the entries into. Every DecodeConfig key is a flag, as in ``fanyi translate``. A progress
bar (texts translated, sentences per second) on stderr when it is a terminal; then prints what
became of the entries (``--json``: one JSON object). The catalogue is the PO document format
(``fanyi.documents.po``), which ``fanyi translate FILE.po`` writes too; this command adds its
report.

The catalogue is read in the charset its header declares, and written back in it with only the
entries filled changed: every other line stays byte for byte as it was, and a new translation is
wrapped at the file's own line width. An existing ``-o`` file, the catalogue itself included, is
replaced only with ``--overwrite``. ``-o`` is written whole (a new file renamed into place) after
every ``--chunk`` entries filled, so Ctrl-C or a kill keeps every entry filled so far; filling
``-o`` in place again fills the rest, as only untranslated entries are filled.

    fanyi po library/functions.po -o library/functions.po --overwrite   # fill it in place
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..outputs import claim_file, write_file
from .arguments import at_least
from .flags import switch
from .progress import Progress
from .translate import add_model_arguments, load_translator

if TYPE_CHECKING:
    from ..documents.po import CatalogueReport

# entries filled between two writes of the catalogue: few enough that Ctrl-C loses little, enough
# to batch their texts by length
CHUNK_ENTRIES = 64


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "po",
        help="fill the untranslated entries of a gettext catalogue (.po), flagged fuzzy",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("catalogue", metavar="FILE.po", help="the catalogue to read")
    add_model_arguments(parser)
    parser.add_argument(
        "-o", "--output", metavar="FILE.po", required=True, help="where to write it (may be FILE)"
    )
    switch(parser, "--overwrite", "replace the -o file if it exists (FILE itself: fill in place)")
    parser.add_argument(
        "--chunk",
        type=at_least(1),
        default=CHUNK_ENTRIES,
        metavar="N",
        help=f"write -o after every N entries filled, so that Ctrl-C keeps them (default "
        f"{CHUNK_ENTRIES})",
    )
    switch(parser, "--json", "print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..documents.api import target_for  # torch: not for --help
    from ..documents.po import filled_in_parts, read_file

    output = claim_file(args.output, args.overwrite)  # before the translating, not after
    document = read_file(args.catalogue)
    translator = load_translator(args)
    to = args.to or target_for(document, translator)
    progress = Progress(None, total=len(document.segments), unit="text")
    parts = filled_in_parts(document, translator, to, args.chunk, progress.done)
    report = document.report
    try:
        for data, done in parts:
            write_file(output, data)  # each part's file whole: Ctrl-C keeps what is filled
            report = done
    finally:
        progress.close()
    print(json.dumps(report.to_dict()) if args.json else summary(report, args.output))
    return 0


def summary(report: CatalogueReport, output: str) -> str:
    """One line on what became of the entries."""
    return (
        f"{output}: {report.filled} of {report.entries} entries filled (flagged fuzzy); left "
        f"as they were: {report.translated_already} translated, {report.fuzzy_or_obsolete} "
        f"fuzzy or obsolete, {report.code_only} code only, {report.placeholders_lost} with a "
        f"placeholder lost, {report.outside_charset} not in the catalogue's charset, "
        f"{report.failed} failed; inline markup: {report.spans_held} "
        f"of {report.spans} spans held as written"
    )

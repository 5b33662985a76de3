"""``fanyi po``: fill the untranslated entries of a gettext catalogue (``.po``) with translations.

Each entry with no translation yet (not fuzzy, not obsolete, not code only) is translated as
written, its reStructuredText inline markup (roles, literals, emphasis), which the translator
copies, set apart by spaces as reST needs, a literal block's ``::`` kept, and flagged ``fuzzy``
for a person to review; entries already translated stay as they are, and so does one whose
translation lost a format placeholder (``%s``, ``{name}``). The target language is ``--to``, else
the catalogue's ``Language`` header (``zh_CN`` → zh) where the model translates into it, else
detected per entry. Every DecodeConfig key is a flag, as in ``fanyi translate``. A progress
bar (texts translated, sentences per second) on stderr when it is a terminal; then prints what
became of the entries (``--json``: one JSON object).

    fanyi po library/functions.po -o library/functions.po   # fill a catalogue in place
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import polib

from ..atomic import write_text_atomic
from ..catalogue import CatalogueReport, fill, left_as_is, sources_of
from .flags import switch
from .progress import Progress
from .translate import add_model_arguments, load_translator


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
    switch(parser, "--json", "print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    catalogue, output = read_catalogue(Path(args.catalogue)), Path(args.output)
    if not output.parent.is_dir():  # found out before the translating, not after
        raise ValueError(f"{output}: no folder {output.parent} to write it in")
    translator = load_translator(args)
    to = args.to or language_of(catalogue, translator.targets)
    texts = sum(len(sources_of(e)) for e in catalogue if left_as_is(e) is None)
    progress = Progress(None, total=texts, unit="text")
    try:
        report = fill(catalogue, translator, to, progress.done)
    finally:
        progress.close()
    write_text_atomic(output, str(catalogue) + "\n")
    print(json.dumps(report.to_dict()) if args.json else summary(report, args.output))
    return 0


def read_catalogue(path: Path) -> polib.POFile:
    """The catalogue in ``path`` (polib would read a missing path's name as the catalogue)."""
    text = path.read_text(encoding="utf-8")
    try:
        return polib.pofile(text, wrapwidth=0)
    except OSError as error:  # polib's syntax error
        raise ValueError(f"{path}: not a gettext catalogue: {error}") from None


def language_of(catalogue: polib.POFile, targets: list[str]) -> str | None:
    """The catalogue's ``Language`` (its language code before ``_`` or ``-``) where the model
    translates into it, else None."""
    code = catalogue.metadata.get("Language", "").replace("-", "_").split("_")[0].lower()
    return code if code in targets else None


def summary(report: CatalogueReport, output: str) -> str:
    """One line on what became of the entries."""
    return (
        f"{output}: {report.filled} of {report.entries} entries filled (flagged fuzzy); left "
        f"as they were: {report.translated_already} translated, {report.fuzzy_or_obsolete} "
        f"fuzzy or obsolete, {report.code_only} code only, {report.placeholders_lost} with a "
        f"placeholder lost, {report.failed} failed; inline markup: {report.spans_held} "
        f"of {report.spans} spans held as written"
    )

"""A document translated in one call, as the API, the CLI and the server do it: its bytes (or a
path) in, the translated file's bytes and what became of its segments out.

``translate_document(translator, "notes.md", to="zh")``; bytes need ``format`` or a ``name``
whose extension names it. A format fanyi does not read is a :class:`UnknownFormat`, a file its
parser refuses a ValueError of one line; both name the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..inputs import read_bytes
from ..translate.translation import Translation
from ..translate.translator import Translator
from .document import Document, Format
from .registry import format_for
from .segment import Segment, plain
from .translating import DocumentReport
from .translating import translate_document as translate_read

DOCUMENT_BYTES = 64 << 20  # the largest document read


class UnknownFormat(ValueError):
    """No document format reads the file (by its name or the one given)."""


@dataclass
class TranslatedDocument:
    """A translated document: the file's ``data``, its ``format``'s name, the language ``to``,
    and the ``report`` on its segments."""

    data: bytes
    format: str
    to: str
    report: DocumentReport = field(default_factory=DocumentReport)

    @property
    def failed(self) -> bool:
        """Whether a segment failed (left as it was)."""
        return self.report.failed > 0

    def summary(self, output: str) -> str:
        """One line on what became of the document's segments, written to ``output``."""
        r = self.report
        return (
            f"{output}: {self.format} into {self.to}: {r.whole} of {r.segments} segments "
            f"translated whole, {r.piecewise} piece by piece around markup that could not be "
            f"placed, {r.failed} left as they were (failed); {json.dumps(r.to_dict())}"
        )


def read_document(
    source: str | Path | bytes, format: str | None = None, name: str | None = None
) -> tuple[Format, Document]:
    """The format and the document read from ``source`` (a path, or a file's bytes called
    ``name``); ``format`` names the format, else the name's extension does."""
    if isinstance(source, bytes):
        label = name or "document"
        if format is None and name is None:
            raise UnknownFormat("a document given as bytes needs its format or a file name")
    else:
        label = name or str(source)
    try:
        found = format_for(label, format)
    except ValueError as error:
        raise UnknownFormat(str(error)) from None
    data = source if isinstance(source, bytes) else read_bytes(Path(source), DOCUMENT_BYTES)
    return found, found.read(data, label)


def translate_read_document(
    translator: Translator,
    found: Format,
    document: Document,
    to: str | None = None,
    each: Callable[[Translation], None] = lambda translation: None,
    **options: Any,
) -> TranslatedDocument:
    """``document`` (read by ``found``) translated into ``to`` (default: :func:`target_for`) with
    ``options`` (DecodeConfig keys)."""
    to = to or target_for(document, translator)
    data, report = translate_read(document, translator, to, each, **options)
    return TranslatedDocument(data, found.name, to, report)


def translate_document(
    translator: Translator,
    source: str | Path | bytes,
    format: str | None = None,
    to: str | None = None,
    *,
    name: str | None = None,
    **options: Any,
) -> TranslatedDocument:
    """The document at path ``source`` (or its bytes, with ``format`` or a file ``name``)
    translated by ``translator`` into ``to`` with ``options`` (DecodeConfig keys)."""
    found, document = read_document(source, format, name)
    return translate_read_document(translator, found, document, to, **options)


def target_for(document: Document, translator: Translator) -> str:
    """The language ``document`` declares it is to be translated into, where the model translates
    into it (a catalogue's ``Language``), else the one the model translates its text into."""
    declared = getattr(document, "language", None)  # the formats that declare one name it so
    if declared in translator.targets:
        return str(declared)
    return target_of(document.segments, translator)


def target_of(segments: list[Segment], translator: Translator) -> str:
    """The language the model translates the document's text into, read from its first words."""
    sample = " ".join(plain(segment) for segment in segments[:50])[:4000]
    return translator.text.languages.target_of(sample, None)

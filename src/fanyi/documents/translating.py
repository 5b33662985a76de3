"""A document translated: every segment's texts sent to the translator in one stream, the
translations composed with their markup (``compose.py``), then written by the format.

``translate_segments`` takes any function from texts to translations, so that the composing can
be tested without a model; ``translate_document`` gives it a :class:`Translator`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..translate.translation import Translation
from ..translate.translator import Translator
from .alignment import Aligned, aligned
from .compose import Escape, Links, Table, compose, piecewise
from .document import Document
from .segment import Piece, Segment, breaks, has_words, parts, piece_requests, requests, sentences

Translate = Callable[[list[str]], Iterable["str | None"]]  # texts → each one's translation
Align = Callable[[list[str]], Iterable["Aligned | None"]]  # texts → each one's, aligned


@dataclass
class DocumentReport:
    """What became of a document's segments: translated whole (markup placed in the sentence's
    translation), in part piece by piece, left as they were for want of words, or failed."""

    segments: int = 0
    whole: int = 0
    piecewise: int = 0
    no_words: int = 0
    failed: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def translate_segments(
    segments: list[Segment],
    translate: Translate,
    escape: Escape,
    to: str,
    align: Align | None = None,
) -> tuple[list[str | None], DocumentReport]:
    """Each segment's translation with its markup (None: left as it was), and the report.

    A part whose wraps' words are not found in its translation is translated again by ``align``
    (where given) with its alignment, and each wrap goes around the words linked to its own; a
    part still not composed is translated piece by piece."""
    report = DocumentReport(segments=len(segments))
    table: Table = {}
    _fill(table, [text for segment in segments for text in requests(segment)], translate)
    done = [[compose(part, table, escape) for part in parts(s)] for s in segments]
    if align is not None:
        links: Links = {}
        _link(table, links, [t for part in _left(segments, done) for t in sentences(part)], align)
        done = [
            [c if c is not None else compose(p, table, escape, links) for p, c in pairs]
            for pairs in (
                zip(parts(s), d, strict=True) for s, d in zip(segments, done, strict=True)
            )
        ]
    left = _left(segments, done)
    _fill(table, [text for part in left for text in piece_requests(part)], translate)
    out: list[str | None] = []
    for segment, composed in zip(segments, done, strict=True):
        pieces = [
            c if c is not None else piecewise(p, table, escape, to)
            for p, c in zip(parts(segment), composed, strict=True)
        ]
        out.append(_joined(pieces, breaks(segment)))
        _count(report, segment, composed, out[-1])
    return out, report


def translate_document(
    document: Document,
    translator: Translator,
    to: str,
    each: Callable[[Translation], None] = lambda translation: None,
    **changes: Any,
) -> tuple[bytes, DocumentReport]:
    """``document`` translated into ``to`` by ``translator`` (``each``: called with every
    translation as it comes, a progress bar; ``changes``: DecodeConfig keys over the
    translator's): the file's bytes and the report."""
    translate, align = translating(translator, to, each, **changes)
    translations, report = translate_segments(
        document.segments, translate, document.escape, to, align
    )
    return document.write(translations, to), report


def translating(
    translator: Translator,
    to: str,
    each: Callable[[Translation], None] = lambda translation: None,
    **changes: Any,
) -> tuple[Translate, Align]:
    """``translator``'s texts into ``to`` (``each`` called with every translation), and its
    texts with their alignment (the model's cross-attention kept: ``attention=True``)."""

    def translate(texts: list[str]) -> Iterable[str | None]:
        for result in translator.stream(texts, to, **changes):
            each(result)
            yield result.text if result.error is None else None

    def align(texts: list[str]) -> Iterable[Aligned | None]:
        for result in translator.stream(texts, to, **{**changes, "attention": True}):
            yield aligned(result)

    return translate, align


def _left(segments: list[Segment], done: list[list[str | None]]) -> list[tuple[Piece, ...]]:
    """The parts of ``segments`` not composed in ``done``."""
    return [
        p
        for s, d in zip(segments, done, strict=True)
        for p, c in zip(parts(s), d, strict=True)
        if c is None
    ]


def _link(table: Table, links: Links, texts: list[str], align: Align) -> None:
    """Translate the ``texts`` again with their alignment into ``links`` (each once), and put
    each translation in ``table`` too (the same words, as a rule)."""
    todo = list(dict.fromkeys(text for text in texts if text not in links))
    for text, found in zip(todo, align(todo) if todo else [], strict=True):
        if found is not None:
            links[text] = found
            table[text] = found.text


def _fill(table: Table, texts: list[str], translate: Translate) -> None:
    """Translate the ``texts`` not in ``table`` yet (each once) into it."""
    todo = list(dict.fromkeys(text for text in texts if text not in table))
    if todo:
        table.update(zip(todo, translate(todo), strict=True))


def _joined(pieces: list[str | None], between: list[str]) -> str | None:
    """A segment's parts joined by its breaks, or None if one failed."""
    if any(piece is None for piece in pieces):
        return None
    out = [pieces[0] or ""]
    for raw, piece in zip(between, pieces[1:], strict=True):
        out += [raw, piece or ""]
    return "".join(out)


def _count(
    report: DocumentReport, segment: Segment, composed: list[str | None], out: str | None
) -> None:
    if not has_words(tuple(p for part in parts(segment) for p in part)):
        report.no_words += 1
    elif out is None:
        report.failed += 1
    elif any(c is None for c in composed):
        report.piecewise += 1
    else:
        report.whole += 1

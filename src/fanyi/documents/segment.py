"""A translatable segment: text with its inline markup held.

A format's reader turns each paragraph, heading, cell, cue or attribute value into a segment: a
sequence of pieces. :class:`Text` is what a reader sees; :class:`Held` is markup copied as written
(inline code, a URL, a tag that wraps nothing), shown to the model as inline code when it shows
words; :class:`Wrap` is markup around words of the sentence (bold, a link, ``<b>…</b>``), put back
around their translation; :class:`Break` cuts a segment into parts translated on their own (a
``<br>``, a subtitle's dialogue lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Text:
    """Words as a reader sees them (markup's escapes and entities already decoded)."""

    text: str


@dataclass(frozen=True)
class Held:
    """Markup copied as written; ``shown``: the words it shows, which the model copies as inline
    code (None: it shows none, and cannot be placed inside a translation)."""

    raw: str
    shown: str | None = None


@dataclass(frozen=True)
class Wrap:
    """Markup around words: ``open`` and ``close`` written as they were, ``inner`` translated."""

    open: str
    close: str
    inner: tuple[Piece, ...]


@dataclass(frozen=True)
class Break:
    """A cut between parts of a segment translated on their own, written as ``raw``."""

    raw: str


Piece = Union[Text, Held, Wrap, Break]  # noqa: UP007  (a runtime alias on Python 3.10)
Segment = tuple[Piece, ...]

_WORD = re.compile(r"[^\W_]")  # a letter or a digit, of any script
_SPACE = re.compile(r"\s+")


def has_words(pieces: tuple[Piece, ...]) -> bool:
    """Whether ``pieces`` show a letter or digit outside held markup: something to translate."""
    for piece in pieces:
        if isinstance(piece, Text) and _WORD.search(piece.text):
            return True
        if isinstance(piece, Wrap) and has_words(piece.inner):
            return True
    return False


def plain(pieces: tuple[Piece, ...]) -> str:
    """What the model reads for ``pieces``: their words, each held span that shows words as
    inline code (which the translator copies and quotes again), whitespace squeezed."""
    return _SPACE.sub(" ", _shown(pieces)).strip()


def _shown(pieces: tuple[Piece, ...]) -> str:
    """What ``pieces`` show, their whitespace as written (a wrap's own spaces count)."""
    out = []
    for piece in pieces:
        if isinstance(piece, Text):
            out.append(piece.text)
        elif isinstance(piece, Held):
            out.append(f"`{piece.shown}`" if piece.shown else " ")
        elif isinstance(piece, Wrap):
            out.append(_shown(piece.inner))
        else:
            out.append(" ")
    return "".join(out)


def parts(segment: Segment) -> list[tuple[Piece, ...]]:
    """``segment`` cut at its breaks (a part may be empty)."""
    found: list[list[Piece]] = [[]]
    for piece in segment:
        if isinstance(piece, Break):
            found.append([])
        else:
            found[-1].append(piece)
    return [tuple(part) for part in found]


def breaks(segment: Segment) -> list[str]:
    """The raw markup of ``segment``'s breaks, in order."""
    return [piece.raw for piece in segment if isinstance(piece, Break)]


def trimmed(pieces: tuple[Piece, ...]) -> tuple[str, tuple[Piece, ...], str]:
    """The whitespace ``pieces`` start and end with, and the pieces between."""
    items = list(pieces)
    lead = trail = ""
    while items and isinstance(items[0], Text) and not items[0].text.strip():
        lead += items.pop(0).text  # type: ignore[union-attr]
    while items and isinstance(items[-1], Text) and not items[-1].text.strip():
        trail = items.pop().text + trail  # type: ignore[union-attr]
    if items and isinstance(items[0], Text):
        text = items[0].text
        lead += text[: len(text) - len(text.lstrip())]
        items[0] = Text(text.lstrip())
    if items and isinstance(items[-1], Text):
        text = items[-1].text
        trail = text[len(text.rstrip()) :] + trail
        items[-1] = Text(text.rstrip())
    return lead, tuple(items), trail


def only_wrap(pieces: tuple[Piece, ...]) -> Wrap | None:
    """The one :class:`Wrap` that ``pieces`` are, whitespace aside, else None."""
    _, items, _ = trimmed(pieces)
    return items[0] if len(items) == 1 and isinstance(items[0], Wrap) else None


def requests(segment: Segment) -> list[str]:
    """The texts the model reads to translate ``segment`` whole: each part's, and each wrap's
    words on their own (to find them in the part's translation)."""
    found: list[str] = []
    for part in parts(segment):
        found += _requests(part)
    return found


def _requests(pieces: tuple[Piece, ...]) -> list[str]:
    if not has_words(pieces):
        return []
    wrap = only_wrap(pieces)
    if wrap is not None:
        return _requests(wrap.inner)
    found = [plain(pieces)]
    for piece in pieces:
        if isinstance(piece, Wrap):
            found += _requests(piece.inner)
    return found


def sentences(pieces: tuple[Piece, ...]) -> list[str]:
    """The texts that ``pieces``' wraps are placed in the translation of: each run of words with
    a wrap in it, as the model reads it."""
    if not has_words(pieces):
        return []
    wrap = only_wrap(pieces)
    if wrap is not None:
        return sentences(wrap.inner)
    found = [plain(pieces)] if any(isinstance(piece, Wrap) for piece in pieces) else []
    for piece in pieces:
        if isinstance(piece, Wrap):
            found += sentences(piece.inner)
    return found


def piece_requests(pieces: tuple[Piece, ...]) -> list[str]:
    """The texts the model reads to translate ``pieces`` piece by piece: each run of words."""
    found: list[str] = []
    for piece in pieces:
        if isinstance(piece, Text) and _WORD.search(piece.text):
            found.append(_SPACE.sub(" ", piece.text).strip())
        elif isinstance(piece, Wrap):
            found += _requests(piece.inner) + piece_requests(piece.inner)
    return found

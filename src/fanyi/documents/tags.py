"""Inline tags in a text (HTML's ``<b>``, a subtitle's ``<i>`` or ``<c.yellow>``): paired into
wraps around the words they mark, a tag without its partner held as written."""

from __future__ import annotations

import html
import re

from .segment import Held, Piece, Text, Wrap

TAG = re.compile(r"<(/?)([A-Za-z0-9][\w-]*)[^<>]*>")  # <b>, <c.yellow>, <1>, <00:17.500>


def tagged(text: str, entities: bool) -> tuple[Piece, ...]:
    """``text`` cut into words and tags, open and close tags paired (``entities``: ``&lt;``
    and the like read as the characters they stand for)."""
    pieces: list[Piece] = []
    at = 0
    for match in TAG.finditer(text):
        if match.start() > at:
            pieces.append(_text(text[at : match.start()], entities))
        pieces.append(Held(match.group()))
        at = match.end()
    if at < len(text):
        pieces.append(_text(text[at:], entities))
    return paired(tuple(pieces))


def paired(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each held open tag and the close tag of the same name after it, at the
    same level, made a :class:`Wrap` around what lies between (innermost first)."""
    items = list(pieces)
    opened: list[tuple[int, str]] = []  # (index in items, tag name) of open tags not closed
    i = 0
    while i < len(items):
        name, closing = _tag(items[i])
        if name and not closing:
            opened.append((i, name))
        elif name and closing and any(n == name for _, n in opened):
            while opened[-1][1] != name:
                opened.pop()  # an open tag closed by none stays held
            start, _ = opened.pop()
            open_tag, close_tag = items[start], items[i]
            wrap = Wrap(open_tag.raw, close_tag.raw, tuple(items[start + 1 : i]))  # type: ignore[union-attr]
            items[start : i + 1] = [wrap]
            i = start
        i += 1
    return tuple(items)


def _tag(piece: Piece) -> tuple[str | None, bool]:
    """The name of the tag ``piece`` holds (lower case) and whether it closes, or (None, False)."""
    if not isinstance(piece, Held) or piece.shown is not None:
        return None, False
    match = TAG.fullmatch(piece.raw)
    if match is None or match.group(2) is None or piece.raw.endswith("/>"):
        return None, False
    return match.group(2).lower(), bool(match.group(1))


def _text(text: str, entities: bool) -> Text:
    return Text(html.unescape(text) if entities else text)

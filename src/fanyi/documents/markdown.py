"""Markdown (CommonMark with GFM tables and strikethrough, parsed by markdown-it-py): headings,
paragraphs, list items, table cells, link text and image descriptions translated; code blocks,
code spans, link destinations, HTML blocks and YAML front matter written as they were.

The parser's block tokens give each paragraph's lines; its text is found on them, and only that
text is replaced by its translation, on one line (a paragraph's lines are joined, as a renderer
joins them). A line the document does not translate stays byte for byte as it was. A paragraph
whose inline markup the walk cannot place (``markdown_inline.py``) is left as it was.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .document import Source, Spliced, decoded
from .markdown_inline import InlineWalk, Unplaceable
from .segment import Segment, has_words

_FRONT_MATTER = re.compile(r"\A(---|\+\+\+)\n.*?\n(?:\1|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_SPECIAL = re.compile(r"([\\`*\[\]|]|<(?=[A-Za-z/!?]))")  # a < that could open a tag
_LONE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_MARKER = re.compile(r"^(?=#{1,6}(?:\s|$)|[-+=>](?:\s|$))")  # a heading's, a list's, a quote's
_NUMBERED = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
_CELLS = {"th_open", "td_open"}


class MarkdownDocument(Spliced):
    """A Markdown file: each inline run of a block (between hard line breaks) one segment."""

    def escape(self, text: str) -> str:
        text = _LONE_UNDERSCORE.sub(r"\\_", _SPECIAL.sub(r"\\\1", text))
        return _NUMBERED.sub(r"\1\\\2", _MARKER.sub(r"\\", text))


def parser() -> MarkdownIt:
    """CommonMark with GFM's tables and strikethrough."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def skeleton(text: str) -> list[tuple | str]:
    """A Markdown text's blocks and the markup a translation must keep as written, in order: its
    blocks, code and HTML, inline code and HTML, link and image addresses, inline markup."""
    kept: list[tuple | str] = []
    for token in parser().parse(text):
        if token.type != "inline":
            kept.append((token.type, token.tag, token.markup, token.info))
        if token.type in ("fence", "code_block", "html_block"):
            kept.append(token.content)
        for child in token.children or []:
            if child.type in ("code_inline", "html_inline"):
                kept.append((child.type, child.content))
            elif child.type in ("link_open", "image"):
                kept.append((child.type, child.attrs.get("href"), child.attrs.get("src")))
            elif child.type.endswith(("_open", "_close")):
                kept.append(child.type)
    return kept


def read(data: bytes, name: str) -> MarkdownDocument:
    """The translatable runs of Markdown file ``data``."""
    source = decoded(data, name)
    front = _FRONT_MATTER.match(source.text)
    skip = front.group().count("\n") if front else 0
    lines = source.text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    md, env = parser(), dict[str, Any]()
    body = "\n".join(lines[skip:])
    regions: list[tuple[int, int]] = []
    segments: list[Segment] = []
    tokens = md.parse(body, env)
    cursor: dict[int, int] = {}  # a table row's line → where its next cell is looked for
    for before, token in zip([None, *tokens], tokens, strict=False):
        if token.type != "inline" or token.map is None:
            continue
        cell = before is not None and before.type in _CELLS
        try:
            found = _runs(token, md, env, lines, starts, skip, cursor if cell else None)
        except Unplaceable:
            continue
        for start, end, pieces in found:
            if has_words(pieces):
                regions.append((start, end))
                segments.append(pieces)
    return MarkdownDocument(Source(source.text, source.bom, source.crlf), regions, segments)


def _runs(
    token: Token,
    md: MarkdownIt,
    env: dict[str, Any],
    lines: list[str],
    starts: list[int],
    skip: int,
    cursor: dict[int, int] | None,
) -> list[tuple[int, int, Segment]]:
    """Each run of ``token``'s text between hard line breaks: its (start, end) in the file and
    its pieces. ``cursor``: the row's cells found so far, for a table cell."""
    first = token.map[0] + skip  # type: ignore[index]
    if cursor is not None:
        start, end = _cell(token.content, lines[first], cursor.get(first, 0))
        cursor[first] = end
        walk = InlineWalk(token.content, md, env)
        (_, _, pieces), *rest = walk.groups(token.children or [])
        if rest:
            raise Unplaceable("a line break in a table cell")
        return [(starts[first] + start, starts[first] + end, pieces)]
    placed = _placed_lines(token.content.split("\n"), lines, first)
    walk = InlineWalk(token.content, md, env)
    return [
        (_in_file(s, placed, starts), _in_file(e, placed, starts), pieces)
        for s, e, pieces in walk.groups(token.children or [])
    ]


def _cell(content: str, line: str, at: int) -> tuple[int, int]:
    """Where a table cell's ``content`` is in its row ``line``, looking from ``at``."""
    for written in (content, content.replace("|", "\\|")):
        found = line.find(written, at)
        if found >= 0:
            return found, found + len(written)
    raise Unplaceable("a table cell not found in its row")


def _placed_lines(content: list[str], lines: list[str], first: int) -> list[tuple[int, int, int]]:
    """For each line of a block's text: where it starts in the text, its file line, and its
    column there (a block's prefix, a list's indentation or ``>``, comes before it)."""
    placed, at = [], 0
    for i, text in enumerate(content):
        line = first + i
        column = lines[line].rfind(text) if line < len(lines) else -1
        if column < 0:
            raise Unplaceable("a block's line not found in the file")
        placed.append((at, line, column))
        at += len(text) + 1
    return placed


def _in_file(offset: int, placed: list[tuple[int, int, int]], starts: list[int]) -> int:
    """Where ``offset`` in a block's text is in the file."""
    at, line, column = max(p for p in placed if p[0] <= offset)
    return starts[line] + column + offset - at

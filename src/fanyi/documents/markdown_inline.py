"""A Markdown paragraph's inline tokens (markdown-it-py's) as pieces, each piece of markup taken
from the paragraph's own text: code spans, link destinations, images and inline HTML as
written, emphasis and links as wraps around their words.

markdown-it-py's inline tokens carry no positions, so the walk keeps a cursor in the paragraph's
text and finds each token's markup after it: a code span by its backtick runs, a link's or an
image's end by markdown-it's own link rules, text by its characters (escapes and entities
decoded as the parser decodes them). A paragraph cut by hard line breaks gives one group of
pieces per line, each with its span in the text.
"""

from __future__ import annotations

import html
import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline.image import image
from markdown_it.rules_inline.link import link
from markdown_it.rules_inline.state_inline import StateInline
from markdown_it.token import Token

from .segment import Held, Piece, Text, Wrap
from .tags import paired

Group = tuple[int, int, tuple[Piece, ...]]  # (start, end) in the paragraph's text, its pieces
_ENTITY = re.compile(r"&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});")
_WRAPS = {"strong_open", "em_open", "s_open"}
_CLOSES = {"strong_close", "em_close", "s_close"}


class Unplaceable(ValueError):
    """An inline token whose markup the walk cannot find in the text: the paragraph is left as
    it was."""


class InlineWalk:
    """A cursor through ``src``, a paragraph's text, turning its tokens into pieces."""

    def __init__(self, src: str, md: MarkdownIt, env: dict[str, Any], at: int = 0) -> None:
        self.src, self.md, self.env, self.at = src, md, env, at
        self.stack: list[list[Piece]] = [[]]
        self.frames: list[tuple[str, str, int, Held | None]] = []  # open, close, end, address

    def groups(self, tokens: list[Token]) -> list[Group]:
        """The pieces of ``tokens``, one group per line between hard line breaks."""
        found, start = [], self.at
        for token in tokens:
            if token.type != "hardbreak":
                self.step(token)
                continue
            if self.frames:
                raise Unplaceable("a hard line break inside emphasis or a link")
            found.append((start, self.at, paired(tuple(self.stack[0]))))
            self.stack[0] = []
            self.at = start = self._after_newline()
        return [*found, (start, self.at, paired(tuple(self.stack[0])))]

    def step(self, token: Token) -> None:
        """Take ``token``: its markup found after the cursor, its piece added."""
        kind = token.type
        if self.frames and self.frames[-1][3] and kind != "link_close":
            return  # an address's own text: the address is held as written
        if kind == "text":
            self.at = skip_text(self.src, self.at, token.content)
            self._add(Text(token.content))
        elif kind == "softbreak":
            self.at = self._after_newline()
            self._add(Text(" "))
        elif kind == "code_inline":
            start, self.at = code_span(self.src, self.at, token.markup)
            self._add(Held(self.src[start : self.at], token.content))
        elif kind == "html_inline":
            self.at = self._find(token.content) + len(token.content)
            self._add(Held(token.content))
        elif kind == "link_open":
            self._open_link(token)
        elif kind in _WRAPS:
            start = self._find(token.markup)
            self._open(token.markup, token.markup, -1)
            self.at = start + len(token.markup)
        elif kind in ("link_close", *_CLOSES):
            self._close(token)
        elif kind == "image":
            self._image(token)
        else:
            raise Unplaceable(f"an inline {kind}")

    def _open_link(self, token: Token) -> None:
        if token.markup in ("autolink", "linkify"):  # an address as written, its text dropped
            href = str(token.attrs["href"])
            auto = token.markup == "autolink"
            start = self._find("<" if auto else href)
            end = self.src.index(">", start) + 1 if auto else start + len(href)
            address = self.src[start:end]
            self._open("", "", end, Held(address, address.strip("<>")))
            return
        start = self._find("[")
        state = StateInline(self.src, self.md, self.env, [])
        state.pos = start
        if not link(state, True):
            raise Unplaceable("a link whose end is not found")
        end = state.pos
        label_end = self.md.helpers.parseLinkLabel(state, start, True)
        self._open("[", self.src[label_end:end], end)
        self.at = start + 1

    def _image(self, token: Token) -> None:
        start = self._find("![")
        state = StateInline(self.src, self.md, self.env, [])
        state.pos = start
        if not image(state, True):
            raise Unplaceable("an image whose end is not found")
        end = state.pos
        label_end = self.md.helpers.parseLinkLabel(state, start + 1, False)
        inner = InlineWalk(self.src, self.md, self.env, start + 2)
        for child in token.children or []:
            inner.step(child)
        self._add(Wrap("![", self.src[label_end:end], paired(tuple(inner.stack[0]))))
        self.at = end

    def _open(
        self, open_markup: str, close_markup: str, end: int, held: Held | None = None
    ) -> None:
        self.frames.append((open_markup, close_markup, end, held))
        self.stack.append([])

    def _close(self, token: Token) -> None:
        if not self.frames:
            raise Unplaceable(f"a {token.type} without its opening")
        open_markup, close_markup, end, held = self.frames.pop()
        inner = tuple(self.stack.pop())
        if token.type in _CLOSES:
            end = self._find(token.markup) + len(token.markup)
        self._add(held or Wrap(open_markup, close_markup, paired(inner)))
        self.at = end

    def _add(self, piece: Piece) -> None:
        self.stack[-1].append(piece)

    def _find(self, markup: str) -> int:
        """Where ``markup`` starts next, not escaped by a backslash."""
        at = self.at
        while (found := self.src.find(markup, at)) >= 0:
            if not _escaped(self.src, found):
                return found
            at = found + 1
        raise Unplaceable(f"markup {markup!r} not found")

    def _after_newline(self) -> int:
        at = self.src.find("\n", self.at)
        if at < 0:
            raise Unplaceable("a line break not found")
        at += 1
        while at < len(self.src) and self.src[at] in " \t":
            at += 1
        return at


def skip_text(src: str, at: int, text: str) -> int:
    """The end of ``text`` as written in ``src`` from ``at``: its characters, each maybe escaped
    by a backslash or written as an entity."""
    k = 0
    while k < len(text):
        if src.startswith("\\" + text[k], at) and not text[k].isalnum():
            at, k = at + 2, k + 1
        elif src.startswith(text[k], at):
            at, k = at + 1, k + 1
        elif (entity := _ENTITY.match(src, at)) and text.startswith(
            decoded := html.unescape(entity.group()), k
        ):
            at, k = entity.end(), k + len(decoded)
        else:
            raise Unplaceable(f"text {text[:30]!r} not found as written")
    return at


def code_span(src: str, at: int, ticks: str) -> tuple[int, int]:
    """The start and end of the next code span opened by backtick run ``ticks`` after ``at``."""
    run = re.compile(f"(?<!`){re.escape(ticks)}(?!`)")
    opening = run.search(src, at)
    closing = run.search(src, opening.end()) if opening else None
    if opening is None or closing is None:
        raise Unplaceable("a code span not found")
    return opening.start(), closing.end()


def _escaped(src: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes."""
    slashes = 0
    while at - slashes - 1 >= 0 and src[at - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1

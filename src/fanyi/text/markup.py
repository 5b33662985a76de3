"""reStructuredText inline markup → the text a reader of the rendered page sees, and kept valid.

Documentation translations (Sphinx's gettext catalogues) keep the markup of their source:
``:func:`~os.path.join```, ````code````, ``*emphasis*``, ```link <url>`_``, a paragraph ending in
``::``. A translation model should learn from what the page shows, so :func:`plain_text`
renders it: a role shows its title (or the last part of a ``~`` target), a literal its code, a
link its text, emphasis its words. :func:`is_code_only` tells entries with no prose at all.
:func:`render` also lists each span's markup, so that :func:`mend` can make a translation of
marked-up text valid reST again (spans set apart by spaces, a literal block's ``::`` kept).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .lang import HAN

# :role:`content`, :domain:role:`content` (content has no backquote)
_ROLE_PREFIX = r":(?:[A-Za-z0-9_+.-]+:)+"
_ROLE = re.compile(_ROLE_PREFIX + r"`([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``")
_LINK = re.compile(r"`([^`<]*?)\s*<[^`>]*>`_{1,2}")  # `text <target>`_ and anonymous __
_REFERENCE = re.compile(r"`([^`]+)`_{1,2}")  # `text`_
_INTERPRETED = re.compile(r"`([^`]+)`")  # `text`: the default role
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_SUBSTITUTION = re.compile(r"\|(?=\S)([^|]+?)(?<=\S)\|_{0,2}")
_FOOTNOTE = re.compile(r"\s*\[(?:#[\w-]*|\*|\d+|[\w-]+)\]_")
_ESCAPE = re.compile(r"\\(.)|\\$", re.DOTALL)  # "\ " shows nothing, "\*" a star
_HIDDEN = 0xF0000  # escaped characters wait in a private-use plane until markup is rendered
_HIDDEN_CHAR = re.compile("[\U000f0000-\U000fffff]")
_TITLE = re.compile(r"^(.*?)\s*<[^<>]+>$", re.DOTALL)  # a role's "title <target>"
_LETTERS = re.compile(r"[^\W\d_]{2,}")


def role_text(content: str) -> str:
    """What a role such as ``:func:`content``` shows: its title, the target after ``~`` up to
    its last dot, else the target itself (a leading ``!`` only suppresses the link)."""
    titled = _TITLE.match(content)
    if titled and titled.group(1):
        return titled.group(1)
    target = content.lstrip("!")
    if target.startswith("~"):
        return target[1:].rsplit(".", 1)[-1]
    return target


def _hide(char: str) -> str:
    """An escaped character out of markup's way: "\\ " shows nothing, "\\*" a star."""
    if not char or char.isspace():
        return ""
    return chr(_HIDDEN + ord(char)) if ord(char) < 0x10000 else char


@dataclass
class Rendered:
    """A text as its page shows it, with the markup of each inline span (in order, with what it
    shows: (":func:`~os.path.join`", "join")) and whether a literal block follows (``::``)."""

    shown: str
    spans: list[tuple[str, str]] = field(default_factory=list)
    literal_block: bool = False


# Inline markup in the order it is rendered (escaped characters are hidden first), each with
# what a match shows; a footnote reference shows nothing.
_STEPS = (
    (_ROLE, lambda m: role_text(m.group(1))),
    (_LITERAL, lambda m: m.group(1)),
    (_LINK, lambda m: m.group(1)),
    (_REFERENCE, lambda m: m.group(1)),
    (_INTERPRETED, lambda m: m.group(1)),
    (_STRONG, lambda m: m.group(1)),
    (_EMPHASIS, lambda m: m.group(1)),
    (_SUBSTITUTION, lambda m: m.group(1)),
    (_FOOTNOTE, lambda m: ""),
)


def render(text: str) -> Rendered:
    """``text`` with its inline reST markup rendered, whitespace squeezed, and a paragraph's
    closing ``::`` shown as the single colon Sphinx prints; each span's markup kept as written."""
    text = _ESCAPE.sub(lambda m: _hide(m.group(1) or ""), text)  # escaped: never markup
    found: list[tuple[str, str]] = []  # (markup, shown), in the order rendered

    def shown(show: Callable[[re.Match[str]], str], match: re.Match[str]) -> str:
        found.append((match.group().strip(), show(match)))
        return found[-1][1]

    for pattern, show in _STEPS:
        text = pattern.sub(functools.partial(shown, show), text)
    text = " ".join(_unhide(text).split())
    spans = [(_unhide(markup, escaped=True), " ".join(_unhide(s).split())) for markup, s in found]
    block = text.endswith("::")
    if block:
        text = text[:-2].rstrip()
        text = f"{text}:" if text and text[-1].isalnum() else text
    return Rendered(text, spans, block)


def plain_text(text: str) -> str:
    """``text`` as its page shows it (:func:`render`)."""
    return render(text).shown


def _unhide(text: str, escaped: bool = False) -> str:
    """Hidden escaped characters shown (or, ``escaped``, written with their backslash again)."""
    back = "\\" if escaped else ""
    return _HIDDEN_CHAR.sub(lambda m: back + chr(ord(m.group()) - _HIDDEN), text)


_PLACE = 0x100000  # a span held waits in the last private-use plane until all are found
_PLACED = re.compile("[\U00100000-\U0010fffd]")
ROLE_NAME = re.compile(f"{_ROLE_PREFIX}(?=`)")  # ":func:" of ":func:`abs`"
_NEEDS_SPACE = re.compile(f"[\\w{HAN}]")  # letters, digits and Han characters


def mend(translation: str, rendered: Rendered) -> tuple[str, int]:
    """``translation`` of a text written with its markup (``rendered``), made valid reST: each
    span it holds as written (the longest first) set apart by a space from letters, digits, Han
    characters and other spans, as inline markup must be, and ``::`` at the end where a literal
    block follows (a translation ends with the colon it read); a role's name left without its
    content (":term:asynchronous 迭代器", the content translated) is taken out, since the page
    would show it. Returns it and how many of the spans it holds as written."""
    held = 0
    for n, (markup, _) in sorted(enumerate(rendered.spans), key=lambda item: -len(item[1][0])):
        if markup in translation:
            translation = translation.replace(markup, chr(_PLACE + n), 1)
            held += 1
    for name in {m.group() for markup, _ in rendered.spans if (m := ROLE_NAME.match(markup))}:
        translation = re.sub(re.escape(name) + r"(?!`)\s*", "", translation)
    if rendered.literal_block:
        translation = translation.rstrip().rstrip(":：").rstrip() + "::"
    return _PLACED.sub(lambda m: _set_apart(m, rendered.spans), translation), held


def _set_apart(place: re.Match[str], spans: list[tuple[str, str]]) -> str:
    """The markup of the span at ``place``, with a space on each side that needs one."""
    text, start, end = place.string, place.start(), place.end()
    markup = spans[ord(place.group()) - _PLACE][0]
    glued = start and (_NEEDS_SPACE.match(text[start - 1]) or _PLACED.match(text[start - 1]))
    before = " " if glued else ""
    after = " " if end < len(text) and _NEEDS_SPACE.match(text[end]) else ""  # not a span:
    return f"{before}{markup}{after}"  # the span after sets itself apart


def is_code_only(text: str) -> bool:
    """Whether ``text`` (with its markup) holds no prose: nothing but roles, literals and
    symbols once those are taken out (``:func:`abs```, ````x < y````, ``**A**``)."""
    prose = _ROLE.sub(" ", _LITERAL.sub(" ", text))
    prose = _STRONG.sub(r"\1", prose)
    return _LETTERS.search(prose) is None

"""reStructuredText inline markup → the text a reader of the rendered page sees.

Documentation translations (Sphinx's gettext catalogues) keep the markup of their source:
``:func:`~os.path.join```, ````code````, ``*emphasis*``, ```link <url>`_``, a paragraph ending in
``::``. A translation model should learn from what the page shows, so :func:`plain_text`
renders it: a role shows its title (or the last part of a ``~`` target), a literal its code, a
link its text, emphasis its words. :func:`is_code_only` tells entries with no prose at all.
"""

from __future__ import annotations

import re

# :role:`content`, :domain:role:`content` (content has no backquote)
_ROLE = re.compile(r":(?:[A-Za-z0-9_+.-]+:)+`([^`]+)`")
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


def plain_text(text: str) -> str:
    """``text`` with its inline reST markup rendered, whitespace squeezed, and a paragraph's
    closing ``::`` (a literal block follows) shown as the single colon Sphinx prints."""
    text = _ESCAPE.sub(lambda m: _hide(m.group(1) or ""), text)  # escaped: never markup
    text = _ROLE.sub(lambda m: role_text(m.group(1)), text)
    text = _LITERAL.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _REFERENCE.sub(r"\1", text)
    text = _INTERPRETED.sub(r"\1", text)
    text = _STRONG.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = _SUBSTITUTION.sub(r"\1", text)
    text = _FOOTNOTE.sub("", text)
    text = _HIDDEN_CHAR.sub(lambda m: chr(ord(m.group()) - _HIDDEN), text)
    text = " ".join(text.split())
    if text.endswith("::"):
        text = text[:-2].rstrip()
        text = f"{text}:" if text and text[-1].isalnum() else text
    return text


def is_code_only(text: str) -> bool:
    """Whether ``text`` (with its markup) holds no prose: nothing but roles, literals and
    symbols once those are taken out (``:func:`abs```, ````x < y````, ``**A**``)."""
    prose = _ROLE.sub(" ", _LITERAL.sub(" ", text))
    prose = _STRONG.sub(r"\1", prose)
    return _LETTERS.search(prose) is None

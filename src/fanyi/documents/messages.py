"""An application's message (i18next, ICU MessageFormat, gettext-style formats) as segments:
placeholders held as written, tags wrapped around the words they mark, and an ICU plural or
select argument kept as written around each of its branches, which are messages of their own.

Held: ``{name}``, ``{count, number}``, ``{{name}}`` (i18next), ``$t(key)`` (i18next nesting),
``%name%`` (Symfony), printf's ``%s``, ``%(name)s``, ``%1$s``, and ``#`` inside a plural branch. Wrapped: ``<b>…</b>``
and react-i18next's numbered ``<1>…</1>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .segment import Held, Piece, Segment, Text
from .tags import TAG, paired

_PLACEHOLDER = re.compile(
    r"\{\{[^{}]*\}\}|\$t\([^()]*\)|%[A-Za-z_][\w.-]*%|%(?:\d+\$)?(?:\([^)]*\))?[-#0 +']*(?:\d+|\*)?(?:\.\d+)?[a-zA-Z%]"
    r"|<(/?)([A-Za-z0-9][\w-]*)[^<>]*>"
)
_COMPLEX = re.compile(r"\{\s*[\w.]+\s*,\s*(plural|select|selectordinal)\s*,", re.IGNORECASE)
_BRANCH = re.compile(r"\s*(=?[\w-]+)\s*\{")

Template = list["str | int"]  # raw text as written, and the index of a message's segment


def template(
    text: str, segments: list[Segment], plural: bool = False, words: Callable[[str], str] = str
) -> Template:
    """``text`` as raw parts and the segments of its messages (appended to ``segments``):
    each ICU plural or select argument's branches are messages of their own. ``words``: how a
    run of words as written reads (an XML text's entities decoded)."""
    out: Template = []
    at = 0
    for start, end, branches in _complex_arguments(text):
        out += _message(text[at:start], segments, plural, words)
        inner_at = start
        for branch_start, branch_end in branches:
            out.append(text[inner_at:branch_start])
            out += template(text[branch_start:branch_end], segments, True, words)
            inner_at = branch_end
        out.append(text[inner_at:end])
        at = end
    return out + _message(text[at:], segments, plural, words)


def filled(parts: Template, translations: list[str | None], sources: list[str]) -> str:
    """A template with each message's translation (or, None, its source) in its place."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        else:
            translation = translations[part]
            out.append(sources[part] if translation is None else translation)
    return "".join(out)


def _message(
    text: str, segments: list[Segment], plural: bool, words: Callable[[str], str]
) -> Template:
    """A simple message: one segment where it has words, else its raw text."""
    pieces = tuple(
        Text(words(p.text)) if isinstance(p, Text) else p for p in pieces_of(text, plural)
    )
    if not any(isinstance(p, Text) and re.search(r"[^\W\d_]", p.text) for p in pieces):
        return [text] if text else []
    segments.append(paired(pieces))
    return [len(segments) - 1]


def pieces_of(text: str, plural: bool = False) -> tuple[Piece, ...]:
    """``text`` cut into words, placeholders (held, shown as written) and tags (held, to pair);
    simple ICU arguments ``{name}`` held too, and ``#`` in a plural branch."""
    pieces: list[Piece] = []
    at = 0
    for start, end, kind in _spans(text, plural):
        if start > at:
            pieces.append(Text(text[at:start]))
        raw = text[start:end]
        pieces.append(Held(raw) if kind == "tag" else Held(raw, raw))
        at = end
    if at < len(text):
        pieces.append(Text(text[at:]))
    return tuple(pieces)


def _spans(text: str, plural: bool) -> list[tuple[int, int, str]]:
    """The placeholders and tags of ``text``: (start, end, "tag" or "placeholder"), in order."""
    found = []
    for match in _PLACEHOLDER.finditer(text):
        found.append((match.start(), match.end(), "tag" if match.group(2) else "placeholder"))
    taken = [(s, e) for s, e, _ in found]
    depth, start = 0, -1
    for i, char in enumerate(text):
        if any(s <= i < e for s, e in taken):
            continue
        if char == "{":
            depth, start = depth + 1, i if depth == 0 else start
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                found.append((start, i + 1, "placeholder"))
        elif char == "#" and plural and depth == 0:
            found.append((i, i + 1, "placeholder"))
    return sorted(found)


def _complex_arguments(text: str) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Each top-level ICU plural or select argument (not inside a tag): its span, and its
    branches' messages'."""
    found = []
    at = 0
    tags = [m.span() for m in TAG.finditer(text)]
    while (match := _COMPLEX.search(text, at)) is not None:
        inside = next((end for start, end in tags if start < match.start() < end), None)
        if inside is not None:
            at = inside
            continue
        end, branches = _branches(text, match.end())
        if end < 0:
            break
        found.append((match.start(), end, branches))
        at = end
    return found


def _branches(text: str, at: int) -> tuple[int, list[tuple[int, int]]]:
    """From ``at`` (after ``{n, plural,``): the argument's end and each branch's message span;
    (-1, []) where it is not closed."""
    branches = []
    offset = re.compile(r"\s*offset:\d+").match(text, at)
    at = offset.end() if offset else at
    while (branch := _BRANCH.match(text, at)) is not None:
        depth, i = 1, branch.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth:
            return -1, []
        branches.append((branch.end(), i - 1))
        at = i
    close = re.compile(r"\s*\}").match(text, at)
    return (close.end(), branches) if close and branches else (-1, [])

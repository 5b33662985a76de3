"""HTML: text and the ``alt``, ``title`` and ``placeholder`` attributes translated, ``lang`` set
to the target; every other byte written as it was.

Python's own HTML parser gives each tag and text its span (``html_events.py``). The text between
two block boundaries (a paragraph, a heading, a cell, an item) is one segment, its inline
elements (``<b>``, ``<a>``, ``<em>``…) wraps around the words they mark, ``<br>`` a break between
parts; ``<code>``, ``<kbd>``, ``<samp>``, ``<var>`` and anything marked ``translate="no"`` are
held as written, and ``<script>``, ``<style>``, ``<pre>``, ``<textarea>``, ``<svg>`` and
``<math>`` are left alone with all they hold. An attribute of an inline element is translated
on its own and written into the element's tag wherever the tag is written.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from .document import Source, decoded
from .html_events import Event, attribute_values, events
from .segment import Break, Held, Piece, Segment, Text, has_words, trimmed
from .tags import paired

INLINE = {
    *("a", "abbr", "b", "bdi", "bdo", "big", "br", "button", "cite", "code", "data", "del"),
    *("dfn", "em", "font", "i", "img", "input", "ins", "kbd", "label", "mark", "q", "s"),
    *("samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr"),
}
HELD = {"code", "kbd", "samp", "var", "tt"}  # inline code: copied as written
LEFT_ALONE = {"script", "style", "pre", "textarea", "template", "svg", "math"}
VOID = {
    *("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"),
    *("source", "track", "wbr"),
}
_SLOT = 0x100000  # an attribute's value inside a held tag waits here until it is translated
_SLOTS = re.compile("[\U00100000-\U0010fffd]")


@dataclass
class Unit:
    """Where a segment's translation goes: a region of the file (None: an attribute inside a
    tag written by another unit), the source written where it is not translated (attribute
    values as slots), and for an attribute the quote its value is written in."""

    region: tuple[int, int] | None
    source: str
    attribute: str | None = None  # the quote of an attribute's value: ", ' or "" (none)


class HtmlDocument:
    """An HTML file: its texts and attribute values, with where each one's translation goes."""

    def __init__(self, source: Source, units: list[Unit], segments: list[Segment]) -> None:
        self.source, self.units, self.segments = source, units, segments
        self.lang = _lang_region(source.text)

    def escape(self, text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    def write(self, translations: list[str | None], to: str) -> bytes:
        written = [self._written(unit, t) for unit, t in zip(self.units, translations, strict=True)]

        def filled(text: str) -> str:
            return _SLOTS.sub(lambda m: filled(written[ord(m.group()) - _SLOT]), text)

        edits = [
            (u.region, filled(w)) for u, w in zip(self.units, written, strict=True) if u.region
        ]
        if self.lang is not None:
            edits.append(self.lang(to))
        text, out, at = self.source.text, [], 0
        for (start, end), replacement in sorted(edits, key=lambda edit: edit[0]):
            out += [text[at:start], replacement]
            at = end
        return self.source.encode("".join([*out, text[at:]]))

    @staticmethod
    def _written(unit: Unit, translation: str | None) -> str:
        if translation is None or unit.attribute is None:
            return unit.source if translation is None else translation
        quote = unit.attribute or '"'  # an unquoted value that now holds spaces is quoted
        text = (
            translation.replace('"', "&quot;")
            if quote == '"'
            else translation.replace("'", "&#x27;")
        )
        return text if unit.attribute else f'"{text}"'


def read(data: bytes, name: str) -> HtmlDocument:
    """The texts and attribute values of HTML file ``data``."""
    source = decoded(data, name)
    if "<" not in source.text:
        raise ValueError(f"{name}: not an HTML file: it has no tag")
    if _SLOTS.search(source.text):
        raise ValueError(
            f"{name}: holds characters of Unicode's private-use plane 16, which fanyi reads no HTML with"
        )
    reader = _Reader(source.text)
    reader.walk(events(source.text))
    return HtmlDocument(source, reader.units, reader.segments)


class _Reader:
    """The walk through the events: runs of inline content gathered between block boundaries."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.units: list[Unit] = []
        self.segments: list[Segment] = []
        self.run: list[Event] = []
        self.slots: dict[tuple[int, int], int] = {}  # an attribute value's span → its unit

    def walk(self, found: list[Event]) -> None:
        i = 0
        while i < len(found):
            event = found[i]
            if event.kind == "start" and _left_alone(event):
                self.flush()
                i = _matching_end(found, i)
            elif event.kind == "start" and event.tag in HELD and not event.closed:
                j = _matching_end(found, i)
                self.run += found[i : j + 1]
                i = j
            elif event.kind == "text" or (event.kind in ("start", "end") and event.tag in INLINE):
                self.run.append(event)
            else:
                self.flush()
                self._attributes(event, inside=False)
            i += 1
        self.flush()

    def flush(self) -> None:
        """The run gathered so far made a segment, or, without words, its attributes alone."""
        run, self.run = self.run, []
        pieces = self._pieces(run, slots=False)
        if not has_words(tuple(pieces)):
            for event in run:
                self._attributes(event, inside=False)
            return
        for event in run:
            self._attributes(event, inside=True)  # first: the pieces' tags name their slots
        _, kept, _ = trimmed(tuple(self._pieces(run, slots=True)))
        start, end = _trimmed_span(self.text, run)
        self.units.append(Unit((start, end), self._slotted(start, end)))
        self.segments.append(paired(kept))

    def _pieces(self, run: list[Event], slots: bool) -> list[Piece]:
        pieces: list[Piece] = []
        i = 0
        while i < len(run):
            event, raw = run[i], self._raw(run[i], slots)
            if event.kind == "text":
                pieces.append(Text(html.unescape(raw)))
            elif event.kind == "start" and event.tag in HELD and not event.closed:
                j = _matching_end(run, i)
                shown = "".join(
                    html.unescape(self._raw(e, False)) for e in run[i + 1 : j] if e.kind == "text"
                )
                pieces.append(
                    Held(
                        "".join(self._raw(e, slots) for e in run[i : j + 1]), shown.strip() or None
                    )
                )
                i = j
            elif event.kind == "start" and event.tag == "br":
                pieces.append(Break(raw))
            else:
                pieces.append(Held(raw))
            i += 1
        return pieces

    def _attributes(self, event: Event, inside: bool) -> None:
        """A unit for each attribute of ``event`` worth translating (``inside``: written by the
        unit of the run that holds its tag)."""
        if event.kind != "start" or _left_alone(event):
            return
        for start, end, quote in attribute_values(
            self.text[event.start : event.end], event.start
        ).values():
            words = html.unescape(self.text[start:end])
            if has_words((Text(words),)):
                self.slots[(start, end)] = len(self.units)
                region = None if inside else (start, end)
                self.units.append(Unit(region, self.text[start:end], quote))
                self.segments.append((Text(words),))

    def _raw(self, event: Event, slots: bool) -> str:
        return (
            self._slotted(event.start, event.end) if slots else self.text[event.start : event.end]
        )

    def _slotted(self, start: int, end: int) -> str:
        """The text of [start, end) with each translated attribute value in it as its slot."""
        out, at = [], start
        for (s, e), unit in sorted(self.slots.items()):
            if start <= s and e <= end and self.units[unit].region is None:
                out += [self.text[at:s], chr(_SLOT + unit)]
                at = e
        return "".join([*out, self.text[at:end]])


def _left_alone(event: Event) -> bool:
    return event.tag in LEFT_ALONE or (event.attrs.get("translate") or "").lower() == "no"


def _matching_end(found: list[Event], i: int) -> int:
    """The index of the end tag that closes the element started at ``i`` (the last event where
    it is never closed; ``i`` itself for a void element)."""
    tag = found[i].tag
    if found[i].closed or tag in VOID:
        return i
    depth = 0
    for j in range(i, len(found)):
        if found[j].tag == tag and found[j].kind == "start" and not found[j].closed:
            depth += 1
        elif found[j].tag == tag and found[j].kind == "end":
            depth -= 1
            if depth == 0:
                return j
    return len(found) - 1


def _trimmed_span(text: str, run: list[Event]) -> tuple[int, int]:
    """The span of ``run`` without the whitespace it starts and ends with."""
    start, end = run[0].start, run[-1].end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_HTML_TAG = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
_LANG = re.compile(
    r"""(?<=[\s"'])lang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE
)


def _lang_region(text: str) -> Callable[[str], tuple[tuple[int, int], str]] | None:
    """How to set the ``lang`` of the document's ``<html>`` tag: the span of its value (or
    where the attribute goes) and what is written there; None without an ``<html>`` tag."""
    tag = _HTML_TAG.search(text)
    if tag is None:
        return None
    lang = _LANG.search(tag.group())
    if lang is None:
        at = tag.start() + len("<html")
        return lambda to: ((at, at), f' lang="{to}"')
    group = next(g for g in (1, 2, 3) if lang.group(g) is not None)
    span = (tag.start() + lang.start(group), tag.start() + lang.end(group))
    return lambda to: (span, to)

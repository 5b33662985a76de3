"""An HTML file as the events of Python's own HTML parser (``html.parser``), each with its span
in the text: so that a writer can replace a text or an attribute's value and leave every other
byte, the markup included, as it was."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

WORTH_TRANSLATING = ("alt", "title", "placeholder")  # attributes whose value is text to read


@dataclass
class Event:
    """A start or end tag, text, or anything else (a comment, a declaration), at [start, end)."""

    kind: str  # "start", "end", "text" or "other"
    start: int
    end: int = 0
    tag: str = ""
    attrs: dict[str, str | None] = field(default_factory=dict)
    closed: bool = False  # a start tag written <x/>


class _Collector(HTMLParser):
    def __init__(self, lines: list[int]) -> None:
        super().__init__(convert_charrefs=True)
        self.lines, self.events = lines, []  # type: ignore[var-annotated]

    def _at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(Event("start", self._at(), 0, tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(Event("start", self._at(), 0, tag, dict(attrs), closed=True))

    def handle_endtag(self, tag: str) -> None:
        self.events.append(Event("end", self._at(), 0, tag))

    def handle_data(self, data: str) -> None:
        self.events.append(Event("text", self._at()))

    def handle_comment(self, data: str) -> None:
        self.events.append(Event("other", self._at()))

    def handle_decl(self, decl: str) -> None:
        self.events.append(Event("other", self._at()))

    def handle_pi(self, data: str) -> None:
        self.events.append(Event("other", self._at()))

    def unknown_decl(self, data: str) -> None:
        self.events.append(Event("other", self._at()))


def events(text: str) -> list[Event]:
    """The events of ``text`` in order, each one's end the next one's start."""
    lines = [0]
    for line in text.split("\n"):
        lines.append(lines[-1] + len(line) + 1)
    collector = _Collector(lines)
    collector.feed(text)
    collector.close()
    found = collector.events
    for event, after in zip(found, [*found[1:], None], strict=True):
        event.end = after.start if after is not None else len(text)
    return [e for e in found if e.end > e.start]


def attribute_values(raw: str, start: int) -> dict[str, tuple[int, int, str]]:
    """The spans (in the file: the tag ``raw`` starts at ``start``) of the values of a start
    tag's attributes worth translating, with their quote (``"``, ``'`` or none)."""
    found = {}
    for match in _ATTRIBUTE.finditer(raw):
        name = match.group(1).lower()
        if name in WORTH_TRANSLATING and name not in found:
            group = next(g for g in (2, 3, 4) if match.group(g) is not None)
            quote = "" if group == 4 else raw[match.start(group) - 1]
            found[name] = (start + match.start(group), start + match.end(group), quote)
    return found


_ATTRIBUTE = re.compile(
    r"""(?<=[\s"'])([^\s"'>/=]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"""
)

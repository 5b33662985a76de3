"""A plain text file, the simplest document: each line with words is one segment, its
indentation and trailing whitespace kept, every other line written as it was."""

from __future__ import annotations

import re

from .document import Spliced, decoded
from .segment import Segment, Text, has_words

_CONTENT = re.compile(r"[^\n]*\S")  # a line's text up to its last non-space character


def read(data: bytes, name: str) -> Spliced:
    """The lines of text file ``data`` as segments."""
    source = decoded(data, name)
    regions: list[tuple[int, int]] = []
    segments: list[Segment] = []
    for match in re.finditer(r"(?m)^[ \t]*(" + _CONTENT.pattern + ")", source.text):
        text = match.group(1)
        if has_words((Text(text),)):
            regions.append(match.span(1))
            segments.append((Text(text),))
    return Spliced(source, regions, segments)

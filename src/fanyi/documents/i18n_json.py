"""An i18n JSON file (i18next, ICU, Chrome's and most web frameworks' locale files: an object of
keys, maybe nested, to strings): each string value translated as a message (``messages.py``), its
placeholders and tags kept; keys, numbers and every byte outside the values written as they
were. A value already in the target language is written as it is (the translator keeps it), as
``fanyi po`` leaves an entry already translated.

The file is parsed by Python's ``json`` (a syntax error is one line naming the file, line and
column); the values' spans are found by a scan of its string tokens, a string followed by a
colon being a key.
"""

from __future__ import annotations

import json
import re

from .compose import written
from .document import Source, decoded
from .messages import Template, filled, template
from .segment import Segment

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_KEY = re.compile(r"\s*:")


class JsonDocument:
    """A JSON file: its string values as templates around their messages' segments."""

    def __init__(
        self, source: Source, values: list[tuple[int, int, Template]], segments: list[Segment]
    ) -> None:
        self.source, self.values, self.segments = source, values, segments
        self.sources = [written(s, str) for s in segments]  # a message left as it was
        self.ascii = not any(ord(c) > 127 for c in source.text)  # written with \\u escapes

    def escape(self, text: str) -> str:
        return text

    def write(self, translations: list[str | None], to: str) -> bytes:
        text, out, at = self.source.text, [], 0
        for start, end, parts in self.values:
            value = filled(parts, translations, self.sources)
            token = text[start:end]
            kept = value == json.loads(token)  # unchanged: its own escapes kept too
            out += [text[at:start], token if kept else json.dumps(value, ensure_ascii=self.ascii)]
            at = end
        return self.source.encode("".join([*out, text[at:]]))


def read(data: bytes, name: str) -> JsonDocument:
    """The string values of JSON file ``data``."""
    source = decoded(data, name)
    try:
        json.loads(source.text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{name}: not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise ValueError(f"{name}: not JSON fanyi reads: nested too deep") from None
    values: list[tuple[int, int, Template]] = []
    segments: list[Segment] = []
    for match in _STRING.finditer(source.text):
        if _KEY.match(source.text, match.end()):
            continue
        text = json.loads(match.group())
        parts = template(text, segments)
        if any(isinstance(p, int) for p in parts):
            values.append((match.start(), match.end(), parts))
    return JsonDocument(source, values, segments)

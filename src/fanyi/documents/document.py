"""The protocol every format follows, and what most share: a text read from bytes and written back
with only its translated regions replaced.

A format reads a file's bytes into a :class:`Document`: its segments in order, how words are
escaped in it, and ``write``, which puts one translation per segment back (None: the segment as
it was) and returns the file's bytes, translated into ``to``. Reading refuses what the format's
parser refuses with a ValueError of one line that names the file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .segment import Segment

BOM = "\ufeff"


class Document(Protocol):
    """A file read by a format: its segments, and the writer that puts translations back."""

    segments: list[Segment]

    def escape(self, text: str) -> str:
        """Words made safe to write in the format (its markup characters escaped)."""
        ...

    def write(self, translations: list[str | None], to: str) -> bytes:
        """The file with each segment's translation in its place (None: left as it was)."""
        ...


@dataclass(frozen=True)
class Format:
    """A document format: its name, the file extensions it reads, and its reader as
    ``module:function`` of ``fanyi.documents`` (``function`` default ``read``; imported when a
    file is read, so that naming the formats loads no parser)."""

    name: str
    extensions: tuple[str, ...]
    reader: str
    help: str

    def read(self, data: bytes, name: str) -> Document:
        """The document in ``data`` (the bytes of the file called ``name``)."""
        module, _, function = self.reader.partition(":")
        found = importlib.import_module(f"{__package__}.{module}")
        reader: Callable[[bytes, str], Document] = getattr(found, function or "read")
        return reader(data, name)


@dataclass
class Source:
    """A file's text as read: without a byte-order mark and with ``\\n`` line ends, and how to
    write it back as it was (``bom``, ``crlf``)."""

    text: str
    bom: bool = False
    crlf: bool = False

    def encode(self, text: str) -> bytes:
        """``text`` as bytes with the file's own byte-order mark and line ends."""
        if self.crlf:
            text = text.replace("\n", "\r\n")
        return ((BOM if self.bom else "") + text).encode("utf-8")


def decoded(data: bytes, name: str) -> Source:
    """``data`` as UTF-8 text, or a ValueError naming ``name``; CRLF line ends read as ``\\n``
    where every line ends so (a mix is kept as it is)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}: not UTF-8 (byte {error.start}); fanyi reads UTF-8") from None
    bom = text.startswith(BOM)
    text = text.removeprefix(BOM)
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    return Source(text.replace("\r\n", "\n") if crlf else text, bom, crlf)


@dataclass
class Spliced:
    """A document whose segments each replace one region of its text; the rest is written
    byte for byte as it was read."""

    source: Source
    regions: list[tuple[int, int]]  # each segment's (start, end) in source.text, in order
    segments: list[Segment]

    def escape(self, text: str) -> str:
        return text

    def write(self, translations: list[str | None], to: str) -> bytes:
        return self.source.encode(self.spliced(translations))

    def spliced(self, translations: list[str | None]) -> str:
        """The text with each region replaced by its translation, where there is one."""
        text, out, at = self.source.text, [], 0
        for (start, end), translation in zip(self.regions, translations, strict=True):
            if translation is not None:
                out += [text[at:start], translation]
                at = end
        return "".join([*out, text[at:]])

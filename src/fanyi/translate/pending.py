"""Texts on their way through a translator: their pieces decoded batch by batch, each text
handed on in input order as soon as it and every text before it are done, and a batch that fails
decoded again in halves, so that only a piece that fails by itself is lost."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from ..decode.constraints import Spellings
from ..decode.hypothesis import Cancelled, Hypothesis
from ..text.code_spans import requote
from ..text.lang import CHINESE, LATIN_SCRIPT, script_of, tidy_spacing, to_traditional
from ..text.list_markers import NO_MARKER, Marker, write_marker
from ..text.numerals import regroup

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Pending:
    """One text: its pieces (sentences, or parts of one) as ids, their hypotheses as they are
    found, or why it is not translated."""

    source: str
    to: str
    pieces: list[list[int]]
    found: list[list[Hypothesis] | None]
    error: str | None = None
    prefix: list[int] = field(default_factory=list)  # target ids its translation starts with
    numbers: list[str] = field(default_factory=list)  # "1,400,000"s written back (numerals.py)
    code: list[str] = field(default_factory=list)  # `code` spans given back (code_spans.py)
    # per piece, the target phrases (ids) its translation holds (constraints.py)
    constraints: list[list[Spellings]] = field(default_factory=list)
    marker: Marker = NO_MARKER  # the list marker written back in front (list_markers.py)
    chinese_script: str = "hans"  # the characters a translation into Chinese is written in

    @property
    def ready(self) -> bool:
        return self.error is not None or all(f is not None for f in self.found)

    def written_back(self, translation: str) -> str:
        """``translation`` with the source's grouped numbers and inline code written as the
        source wrote them, where it holds them as the model read them, after its list marker;
        into Chinese, with no space next to its punctuation, in the characters of
        ``chinese_script`` (the code as written)."""
        written = requote(regroup(translation, self.numbers), self.code)
        if self.to == CHINESE:
            written = tidy_spacing(written, self.code)
        written = write_marker(self.marker, written, script_of(self.to) == LATIN_SCRIPT)
        if self.to != CHINESE or self.chinese_script == "hans":
            return written
        return to_traditional(written, self.chinese_script, self.code)


Piece = tuple[Pending, int]  # a text and the index of one of its pieces


def in_order(
    texts: list[Pending], batches: Iterable[list[Piece]], decode: Callable[[list[Piece]], None]
) -> Iterator[Pending]:
    """``texts`` in order, each as soon as it is ready, while ``decode`` fills in ``batches``."""
    first = 0  # the next text to hand on
    for batch in batches:
        while first < len(texts) and texts[first].ready:
            yield texts[first]
            first += 1
        decode(batch)
    yield from texts[first:]


def isolated(items: list[T], run: Callable[[list[T]], list[R]]) -> list[R | Exception]:
    """``run(items)``, one result per item; if it fails, each half is run apart, down to the
    items that fail alone, whose result is their error (``Cancelled`` stops everything)."""
    try:
        return list(run(items))
    except Cancelled:
        raise
    except Exception as error:  # one item must not cost the others
        if len(items) == 1:
            return [error]
        half = len(items) // 2
        return isolated(items[:half], run) + isolated(items[half:], run)

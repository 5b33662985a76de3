"""Texts on their way through a translator: their pieces decoded batch by batch, each text
handed on in input order as soon as it and every text before it are done, and a batch that fails
decoded again in halves, so that only a piece that fails by itself is lost."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from ..data.batching import token_batches
from ..decode.constraints import Spellings
from ..decode.hypothesis import Cancelled, Hypothesis
from ..text.pipeline import Reading

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
    # per piece, the target phrases (ids) its translation holds (constraints.py)
    constraints: list[list[Spellings]] = field(default_factory=list)
    reading: Reading | None = None  # how the text transforms read it, to write back
    source_lang: str | None = None  # the language it is in: given, or detected (None: unknown)
    unchanged: str | None = None  # its translation, where it is in the language asked already

    def __post_init__(self) -> None:
        if not self.found:  # nothing found yet: one entry per piece
            self.found = [None for _ in self.pieces]

    @property
    def ready(self) -> bool:
        return self.error is not None or all(f is not None for f in self.found)

    def written_back(self, translation: str) -> str:
        """``translation`` with what the text transforms took from the source written back
        (``text/pipeline.py``)."""
        return self.reading.written_back(translation) if self.reading else translation

    def unplaced(self, translation: str) -> list[tuple[str, str]]:
        """What the text transforms asked of ``translation`` (written back) and it misses."""
        return self.reading.unplaced(translation) if self.reading else []


Piece = tuple[Pending, int]  # a text and the index of one of its pieces


def in_batches(texts: list[Pending], per_target: bool, batch_tokens: int) -> Iterator[list[Piece]]:
    """The pieces of ``texts`` in batches of ``batch_tokens`` tokens, sorted by length (and by
    target language where their searches differ: ``per_target``). Pieces that start with
    different target prefixes never share a batch: a prefix's pieces are exempt from the
    suppressed ones for its whole batch, and a text's translation must not depend on others'."""
    pieces = [(text, i) for text in texts for i in range(len(text.pieces))]
    lengths = [len(text.pieces[i]) for text, i in pieces]
    prefix = [tuple(text.prefix) if i == 0 else () for text, i in pieces]

    def group(n: int) -> tuple:
        return prefix[n], per_target and pieces[n][0].to

    order = sorted(range(len(pieces)), key=lambda n: (group(n), lengths[n]))
    for _, members in itertools.groupby(order, key=group):
        for batch in token_batches(list(members), lengths, batch_tokens):
            yield [pieces[n] for n in batch]


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

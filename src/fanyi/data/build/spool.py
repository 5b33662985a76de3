"""Cleaning a corpus in bounded memory: worker processes clean it, a spool file keeps it.

Each input is read once; chunks of its lines are normalised and filtered in worker processes,
and the pairs they keep are written in input order to a spool file of ``source<TAB>target``
lines (normalised text has no tabs or line breaks), beside a 64-bit hash of each pair and of
each side. Duplicates, the leak-free split and the overlap with dev/test are then found among
the hashes (8 bytes a sentence) instead of among the sentences themselves.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path
from typing import overload

import numpy as np

from .corpus import Cleaner, Pair, Record, Report, clean_record
from .pool import chunked, ordered_map

CHUNK_RECORDS = 5000
PAIR, SOURCE, TARGET = 0, 1, 2  # the columns of a spool's hashes


def text_hash(text: str) -> int:
    """A 64-bit hash of ``text``, the same in every process and run (unlike ``hash``)."""
    return int.from_bytes(blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def pair_line(pair: Pair) -> str:
    return f"{pair[0]}\t{pair[1]}\n"


def read_pair(line: str) -> Pair:
    src, tgt = line.rstrip("\n").split("\t")
    return src, tgt


def clean_chunk(task: tuple[Cleaner, bool, list[Record]]) -> tuple[str, np.ndarray, Report]:
    """(kept pairs as spool lines, their hashes, the report) of one chunk of records."""
    cleaner, strict, records = task
    report, lines, hashes = Report(), [], []
    for record in records:
        pair = clean_record(record, cleaner, report, strict)
        if pair is not None:
            lines.append(pair_line(pair))
            hashes.append((text_hash(lines[-1]), text_hash(pair[0]), text_hash(pair[1])))
    return "".join(lines), np.array(hashes, dtype=np.uint64).reshape(-1, 3), report


@dataclass
class Spool:
    """The kept pairs of one input, in input order: lines of ``path`` and their hashes."""

    path: Path
    hashes: np.ndarray  # n x 3 uint64: PAIR, SOURCE, TARGET
    report: Report

    def __len__(self) -> int:
        return len(self.hashes)

    def lines(self, keep: np.ndarray | None = None) -> Iterator[str]:
        """The spool lines (``source<TAB>target\\n``), only those where ``keep`` if given."""
        with self.path.open(encoding="utf-8", newline="\n") as f:
            if keep is None:
                yield from f
            else:
                yield from (line for line, kept in zip(f, keep.tolist(), strict=True) if kept)


def spool(
    records: Iterable[Record], cleaner: Cleaner, path: Path, strict: bool, workers: int
) -> Spool:
    """Clean ``records`` in ``workers`` processes into the spool file ``path``."""
    report, hashes = Report(), []
    tasks = ((cleaner, strict, chunk) for chunk in chunked(records, CHUNK_RECORDS))
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for lines, chunk_hashes, chunk_report in ordered_map(clean_chunk, tasks, workers):
            f.write(lines)
            hashes.append(chunk_hashes)
            report.merge(chunk_report)
    return Spool(path, np.concatenate([np.zeros((0, 3), np.uint64), *hashes]), report)


def first_occurrences(hashes: np.ndarray) -> np.ndarray:
    """Where each value of ``hashes`` occurs first (a boolean mask)."""
    keep = np.zeros(len(hashes), dtype=bool)
    keep[np.unique(hashes, return_index=True)[1]] = True
    return keep


def deduplicated(spooled: Spool, dedup: bool = True) -> np.ndarray:
    """Which pairs of ``spooled`` to keep: the first of each (all without ``dedup``); the
    others are counted as duplicates."""
    if not dedup:
        return np.ones(len(spooled), dtype=bool)
    keep = first_occurrences(spooled.hashes[:, PAIR])
    if not keep.all():
        spooled.report.drop("duplicate", int((~keep).sum()))
    return keep


def sharing_a_side(hashes: np.ndarray, held_out: np.ndarray) -> np.ndarray:
    """Which pairs share their source or their target with a pair of ``held_out`` (a mask)."""
    return np.isin(hashes[:, SOURCE], held_out[:, SOURCE]) | np.isin(
        hashes[:, TARGET], held_out[:, TARGET]
    )


class PairFile(Sequence[Pair]):
    """A file of spool lines read at random, through the offsets of its lines."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with path.open("rb") as f:
            lengths = np.fromiter(map(len, f), dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(lengths)])
        with path.open("rb") as f:
            self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if len(lengths) else b""

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @overload
    def __getitem__(self, i: int) -> Pair: ...

    @overload
    def __getitem__(self, i: slice) -> list[Pair]: ...

    def __getitem__(self, i: int | slice) -> Pair | list[Pair]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        start, end = self.offsets[i], self.offsets[i + 1]
        return read_pair(self.map[start:end].decode("utf-8"))

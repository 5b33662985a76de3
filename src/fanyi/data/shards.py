"""Token shards: a prepared split's ids in numpy files that training memory-maps.

Each side of each split is cut into shards of ``shard_lines`` lines. Shard k of ``train.src``
is two ``.npy`` files: ``train.src.k.ids.npy``, the ids of its lines one after another (``uint16``
when the vocabulary fits, else ``uint32``), and ``train.src.k.offsets.npy`` (int64, where each
line starts, then the end). ``shards.json`` (:class:`ShardIndex`) records the lines of each split,
the shard size and the dtype. Lines are the lines of the text files, ids ``Vocab.encode``'s, so a
reader needs no SentencePiece and no time to start; the page cache holds one copy for every
process that maps the files (DDP ranks on one machine).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import overload

import numpy as np

SHARD_INDEX = "shards.json"
FORMAT = 1  # the version of this layout, recorded in shards.json
REPREPARE = "re-run `fanyi prepare` with its config (its manifest.json holds it)"


def id_dtype(vocab_size: int) -> str:
    """The narrowest unsigned dtype that holds every id of a vocabulary."""
    return "uint16" if vocab_size <= 2**16 else "uint32"


@dataclass
class ShardIndex:
    """What ``shards.json`` says: the layout of every split's shards."""

    format: int
    dtype: str  # of the ids files
    shard_lines: int
    lines: dict[str, int]  # lines of each split (both sides have as many)

    def shard_count(self, split: str) -> int:
        return -(-self.lines[split] // self.shard_lines)

    def files(self, split: str, side: str) -> list[tuple[str, str]]:
        """(ids file, offsets file) of each shard of one side of a split."""
        return [shard_files(split, side, k) for k in range(self.shard_count(split))]

    def all_files(self, sides: Sequence[str]) -> list[str]:
        pairs = [pair for split in self.lines for side in sides for pair in self.files(split, side)]
        return [name for pair in pairs for name in pair] + [SHARD_INDEX]

    def save(self, data_dir: Path) -> None:
        tmp = data_dir / f".{SHARD_INDEX}.tmp"
        tmp.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, data_dir / SHARD_INDEX)


def shard_files(split: str, side: str, k: int) -> tuple[str, str]:
    """The (ids, offsets) file names of shard ``k``: ``train.src.0000.ids.npy`` …"""
    stem = f"{split}.{side}.{k:04d}"
    return f"{stem}.ids.npy", f"{stem}.offsets.npy"


def read_shard_index(data_dir: Path) -> ShardIndex:
    """The shard layout of a data directory; a clear error for one prepared before shards."""
    path = data_dir / SHARD_INDEX
    if not path.is_file():
        raise ValueError(
            f"{data_dir} has no token shards ({SHARD_INDEX}): it was prepared by an older fanyi; "
            + REPREPARE
        )
    index = ShardIndex(**json.loads(path.read_text(encoding="utf-8")))
    if index.format != FORMAT:
        raise ValueError(f"{path}: shard format {index.format}, expected {FORMAT}; {REPREPARE}")
    return index


class ShardWriter:
    """Appends encoded lines to one side of a split, a shard file pair per ``shard_lines``."""

    def __init__(self, data_dir: Path, split: str, side: str, index: ShardIndex) -> None:
        self.data_dir, self.split, self.side, self.index = data_dir, split, side, index
        self.ids: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.pending = self.written = self.total = 0  # lines in the open shard; shards; lines

    def add(self, ids: np.ndarray, lengths: np.ndarray) -> None:
        """Append lines: their ids one after another and the number of ids of each."""
        while len(lengths):
            take = min(self.index.shard_lines - self.pending, len(lengths))
            count = int(lengths[:take].sum())
            self.ids.append(ids[:count].astype(self.index.dtype))  # narrow now: a shard's worth
            self.lengths.append(lengths[:take])
            self.pending += take
            self.total += take
            ids, lengths = ids[count:], lengths[take:]
            if self.pending == self.index.shard_lines:
                self.flush()

    def flush(self) -> None:
        """Write the open shard (if it has lines)."""
        if not self.pending:
            return
        ids_name, offsets_name = shard_files(self.split, self.side, self.written)
        ids = np.concatenate(self.ids)
        offsets = np.zeros(self.pending + 1, dtype=np.int64)
        np.cumsum(np.concatenate(self.lengths), out=offsets[1:])
        np.save(self.data_dir / ids_name, ids)
        np.save(self.data_dir / offsets_name, offsets)
        self.ids, self.lengths, self.pending = [], [], 0
        self.written += 1


def _mapped(path: Path) -> np.ndarray:
    """A ``.npy`` file memory-mapped read-only (read whole when empty: mmap refuses 0 bytes),
    as a plain array: slicing an ``np.memmap`` costs microseconds, a view of it nanoseconds."""
    try:
        return np.asarray(np.load(path, mmap_mode="r"))
    except ValueError:
        return np.load(path)


class TokenShards(Sequence[list[int]]):
    """One side of a prepared split, memory-mapped: item i is the ids of line i."""

    def __init__(self, data_dir: Path, index: ShardIndex, split: str, side: str) -> None:
        files = index.files(split, side)
        self.ids = [_mapped(data_dir / ids) for ids, _ in files]
        self.offsets = [_mapped(data_dir / offsets) for _, offsets in files]
        self.shard_lines, self.lines = index.shard_lines, index.lines[split]
        found = sum(len(o) - 1 for o in self.offsets)
        if found != self.lines or any(
            len(i) != o[-1] for i, o in zip(self.ids, self.offsets, strict=True)
        ):
            raise ValueError(f"{data_dir}: the {split}.{side} shards are incomplete; {REPREPARE}")

    def __len__(self) -> int:
        return self.lines

    @overload
    def __getitem__(self, i: int) -> list[int]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[int]]: ...

    def __getitem__(self, i: int | slice) -> list[int] | list[list[int]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.lines))]
        if not -self.lines <= i < self.lines:
            raise IndexError(f"line {i} of {self.lines}")
        shard, j = divmod(i % self.lines, self.shard_lines)
        offsets = self.offsets[shard]
        return self.ids[shard][offsets[j] : offsets[j + 1]].tolist()

    def gather(self, lines: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The ids of ``lines`` concatenated (int64), and the length of each: one indexing of
        each shard rather than a list per line (a 32k-token batch in well under a millisecond)."""
        index = np.asarray(lines, dtype=np.int64)
        if index.size and not (-self.lines <= index.min() and index.max() < self.lines):
            raise IndexError(f"lines {index.min()}..{index.max()} of {self.lines}")
        shards, within = np.divmod(index % self.lines, self.shard_lines)
        starts, lengths = np.zeros_like(index), np.zeros_like(index)
        for shard in np.unique(shards):
            rows, offsets = shards == shard, self.offsets[shard]
            starts[rows] = offsets[within[rows]]
            lengths[rows] = offsets[within[rows] + 1] - starts[rows]
        row_of = np.repeat(np.arange(len(index)), lengths)  # each id's row
        source = np.arange(int(lengths.sum())) - (np.cumsum(lengths) - lengths)[row_of]
        source += starts[row_of]  # each id's position in its shard
        flat, shard_of = np.empty(len(source), dtype=np.int64), shards[row_of]
        for shard in np.unique(shards):
            taken = shard_of == shard
            flat[taken] = self.ids[shard][source[taken]]
        return flat, lengths

    def lengths(self) -> np.ndarray:
        """The number of ids of every line (int32), from the offsets alone."""
        if not self.offsets:
            return np.zeros(0, dtype=np.int32)
        return np.concatenate([np.diff(o).astype(np.int32) for o in self.offsets])

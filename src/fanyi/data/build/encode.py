"""Encoding a prepared data directory's text files into token shards, in worker processes.

Every line of ``{split}.{side}`` is encoded once with ``Vocab.encode`` (the ids training reads)
and appended to that side's shards (:mod:`fanyi.data.shards`), chunk by chunk, so memory stays
bounded by a chunk per worker and one shard.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from pathlib import Path

import numpy as np

from ..manifest import SIDES, VocabInfo, split_file
from ..shards import FORMAT, ShardIndex, ShardWriter, id_dtype
from ..vocab import Vocab
from .pool import chunked, ordered_map
from .split import SPLITS

CHUNK_LINES = 5000


@lru_cache(maxsize=2)
def _vocab(model: str) -> Vocab:
    """A worker's SentencePiece model, loaded once per process (it cannot be pickled)."""
    return Vocab(model)


def encode_chunk(task: tuple[str, list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """(ids of the lines one after another, number of ids of each line) of (model, lines)."""
    model, lines = task
    encoded = [_vocab(model).encode(line) for line in lines]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    ids = np.fromiter(chain.from_iterable(encoded), dtype=np.int64, count=int(lengths.sum()))
    return ids, lengths


def _lines(path: Path) -> Iterator[str]:
    """The lines of a text file without their breaks (split on ``\\n`` only, as written)."""
    with path.open(encoding="utf-8", newline="\n") as f:
        yield from (line.rstrip("\n") for line in f)


def encode_splits(
    data_dir: Path, vocab: VocabInfo, lines: dict[str, int], shard_lines: int, workers: int
) -> ShardIndex:
    """Encode every split's text files into shards; write and return their ``shards.json``."""
    size = max(vocab.src_size, vocab.tgt_size)
    index = ShardIndex(format=FORMAT, dtype=id_dtype(size), shard_lines=shard_lines, lines=lines)
    models = dict(zip(SIDES, (vocab.src_model, vocab.tgt_model), strict=True))
    for split in SPLITS:
        for side in SIDES:
            model = str(data_dir / models[side])
            text = _lines(data_dir / split_file(split, side))
            tasks = ((model, chunk) for chunk in chunked(text, CHUNK_LINES))
            writer = ShardWriter(data_dir, split, side, index)
            for ids, lengths in ordered_map(encode_chunk, tasks, workers):
                writer.add(ids, lengths)
            writer.flush()
            if writer.total != lines[split]:
                raise ValueError(f"{split_file(split, side)}: not {lines[split]} lines")
    index.save(data_dir)
    return index

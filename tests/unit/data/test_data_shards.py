"""Token shards: what is written is read back line for line, and a directory without them (or
with a shard missing) is refused with what to do."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanyi.data.shards import (
    FORMAT,
    SHARD_INDEX,
    ShardIndex,
    ShardWriter,
    TokenShards,
    id_dtype,
    read_shard_index,
    shard_files,
)

_lines = st.lists(st.lists(st.integers(0, 70_000), max_size=6), max_size=30)


def _write(folder, lines, shard_lines, chunk, vocab_size=80_000):
    index = ShardIndex(FORMAT, id_dtype(vocab_size), shard_lines, {"train": len(lines)})
    writer = ShardWriter(folder, "train", "src", index)
    for start in range(0, len(lines), chunk):
        part = lines[start : start + chunk]
        ids = np.array([i for line in part for i in line], dtype=np.int64)
        writer.add(ids, np.array([len(line) for line in part], dtype=np.int64))
    writer.flush()
    index.save(folder)
    return writer


@settings(max_examples=60, deadline=None)
@given(_lines, st.integers(1, 7), st.integers(1, 9))
def test_shards_read_back_every_line_whatever_the_shard_and_chunk_sizes(
    tmp_path_factory, lines, shard_lines, chunk
):
    folder = tmp_path_factory.mktemp("shards")
    writer = _write(folder, lines, shard_lines, chunk)
    shards = TokenShards(folder, read_shard_index(folder), "train", "src")
    assert writer.written == -(-len(lines) // shard_lines)
    assert [shards[i] for i in range(len(shards))] == lines == shards[:]
    assert shards.lengths().tolist() == [len(line) for line in lines]
    if lines:
        assert shards[-1] == lines[-1]


@settings(max_examples=60, deadline=None)
@given(_lines, st.integers(1, 7), st.data())
def test_gather_concatenates_any_lines_in_the_order_asked_across_shards(
    tmp_path_factory, lines, shard_lines, data
):
    folder = tmp_path_factory.mktemp("gather")
    _write(folder, lines, shard_lines, 4)
    shards = TokenShards(folder, read_shard_index(folder), "train", "src")
    n = len(lines)
    asked = data.draw(st.lists(st.integers(-n, n - 1), max_size=12)) if n else []
    flat, lengths = shards.gather(asked)
    assert flat.dtype == lengths.dtype == np.int64
    assert flat.tolist() == [i for line in asked for i in lines[line]]
    assert lengths.tolist() == [len(lines[line]) for line in asked]
    with pytest.raises(IndexError):
        shards.gather([n])


def test_ids_take_the_narrowest_dtype_the_vocabulary_needs(tmp_path):
    assert (id_dtype(8000), id_dtype(65536), id_dtype(65537)) == ("uint16", "uint16", "uint32")
    _write(tmp_path, [[1, 2], [65535]], 10, 5, vocab_size=65536)
    assert np.load(tmp_path / shard_files("train", "src", 0)[0]).dtype == np.uint16
    with pytest.raises(IndexError):
        TokenShards(tmp_path, read_shard_index(tmp_path), "train", "src")[2]


def test_a_directory_without_shards_or_with_one_missing_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"older fanyi.*re-run `fanyi prepare`"):
        read_shard_index(tmp_path)
    _write(tmp_path, [[1], [2], [3]], 2, 3)
    (tmp_path / shard_files("train", "src", 1)[1]).unlink()
    with pytest.raises(FileNotFoundError):
        TokenShards(tmp_path, read_shard_index(tmp_path), "train", "src")
    _write(tmp_path, [[1], [2], [3]], 2, 3)
    index = read_shard_index(tmp_path)
    index.lines["train"] = 4  # a shards.json that promises more than the shards hold
    index.save(tmp_path)
    with pytest.raises(ValueError, match="incomplete"):
        TokenShards(tmp_path, read_shard_index(tmp_path), "train", "src")
    (tmp_path / SHARD_INDEX).write_text(
        '{"format": 0, "dtype": "uint16", "shard_lines": 1, "lines": {}}'
    )
    with pytest.raises(ValueError, match="shard format 0"):
        read_shard_index(tmp_path)

"""max_repeat_run's tables of a pair of vocabularies, kept in fanyi's cache folder: read back
as made, made again where the code that makes them changed or the file is cut short."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
import torch

from fanyi.decode import run_tables
from fanyi.decode.run_tables import RunTables

SOURCE = ["", "", "", "", "▁你好", "好好", "……", "<0xE5>", "12"]
TARGET = ["", "", "", "", "▁Hello", "ss", "....", "<0xE5>", "<0x80>", "1,000"]
SIZES = (10, 11)


def same(made: object, read: object) -> None:
    """``read`` holds ``made``'s tensors (values and dtypes) and numbers."""
    for column in fields(made):  # type: ignore[arg-type]
        if column.name == "copies":
            continue
        a, b = getattr(made, column.name), getattr(read, column.name)
        if isinstance(a, torch.Tensor):
            assert a.dtype == b.dtype and torch.equal(a, b), column.name
        elif isinstance(a, int):
            assert a == b, column.name
        else:
            same(a, b)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path))
    return tmp_path


def test_tables_read_back_are_those_made(cache: Path) -> None:
    made = RunTables.of(SOURCE, TARGET, SIZES)
    first = RunTables.cached(SOURCE, TARGET, SIZES)
    assert [p.suffix for p in cache.iterdir()] == [".npz"]
    second = RunTables.cached(SOURCE, TARGET, SIZES)
    same(made, first)
    same(made, second)


def test_other_pieces_have_their_own_tables(cache: Path) -> None:
    RunTables.cached(SOURCE, TARGET, SIZES)
    other = [*TARGET[:-1], "2,000"]
    same(RunTables.of(SOURCE, other, SIZES), RunTables.cached(SOURCE, other, SIZES))
    assert len(list(cache.iterdir())) == 2


def test_tables_of_other_code_or_cut_short_are_made_again(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    RunTables.cached(SOURCE, TARGET, SIZES)
    (path,) = cache.iterdir()
    monkeypatch.setattr(run_tables, "code_key", lambda: "other code")
    same(RunTables.of(SOURCE, TARGET, SIZES), RunTables.cached(SOURCE, TARGET, SIZES))
    path.write_bytes(path.read_bytes()[:100])
    same(RunTables.of(SOURCE, TARGET, SIZES), RunTables.cached(SOURCE, TARGET, SIZES))
    assert path.stat().st_size > 100


def test_a_cache_that_cannot_be_written_still_gives_the_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("FANYI_CACHE", str(blocked / "cache"))
    same(RunTables.of(SOURCE, TARGET, SIZES), RunTables.cached(SOURCE, TARGET, SIZES))

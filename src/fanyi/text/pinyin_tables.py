"""A Chinese given name's syllables as pypinyin writes them, from a table of its readings made
once, in a tenth of the time importing pypinyin takes (it loads every phrase it knows and
builds a segmenter over them: a fifth of a second of every start that writes a name).

The table (``$FANYI_CACHE/pinyin-names.txt``, ``table_cache.py``) holds ``lazy_pinyin(text,
style=Style.NORMAL, v_to_u=True)`` for every character pypinyin reads and every phrase of two
characters it knows, sorted. A given name has one or two characters, and pypinyin reads two
characters as a phrase only where they are one, else each alone: the table's answer is its
answer (tests/unit/test_pinyin_tables.py compares them). Anything else, or where no table can
be had, pypinyin answers itself.
"""

from __future__ import annotations

import functools
import importlib.util
from bisect import bisect_left
from pathlib import Path

from .table_cache import Columns, cached_columns, files_key

TABLE = "pinyin-names"  # the table's name in the cache
# the files of pypinyin's package a reading comes from: the table is made again when one changes
SOURCES = ("pinyin_dict.json", "phrases_dict.json", "core.py", "converter.py", "seg/mmseg.py")


def given_syllables(given: str) -> list[str]:
    """``pypinyin.lazy_pinyin(given, style=Style.NORMAL, v_to_u=True)``, from the table for one
    or two characters it holds."""
    table = _table()
    if table is None or not 1 <= len(given) <= 2:
        return _by_pypinyin(given)
    keys, readings = table
    if (phrase := _find(keys, readings, given)) is not None:
        return phrase.split(" ")
    alone = [_find(keys, readings, c) for c in given]
    if len(given) == 1 or None in alone:
        return _by_pypinyin(given)
    return " ".join(alone).split(" ")  # type: ignore[arg-type]


def _find(keys: list[str], readings: list[str], text: str) -> str | None:
    """The reading of ``text`` in the table, None where it holds none."""
    i = bisect_left(keys, text)
    return readings[i] if i < len(keys) and keys[i] == text else None


def _by_pypinyin(text: str) -> list[str]:
    from pypinyin import Style, lazy_pinyin

    return lazy_pinyin(text, style=Style.NORMAL, v_to_u=True)


@functools.cache
def _table() -> tuple[list[str], list[str]] | None:
    """The table's keys (sorted) and readings, read once; None where it cannot be had."""
    spec = importlib.util.find_spec("pypinyin")  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    try:
        key = files_key(*(package / name for name in SOURCES))
    except OSError:
        return None
    columns = cached_columns(TABLE, key, table_columns)
    if columns is None or len(columns) != 2 or len(columns[0]) != len(columns[1]):
        return None
    return columns[0], columns[1]


def table_columns() -> Columns:
    """Every character pypinyin reads and every phrase of two it knows, sorted, each with
    ``lazy_pinyin``'s syllables (joined by spaces)."""
    from pypinyin import Style, lazy_pinyin
    from pypinyin.constants import PHRASES_DICT, PINYIN_DICT

    keys = sorted({chr(c) for c in PINYIN_DICT} | {p for p in PHRASES_DICT if len(p) == 2})
    readings = [" ".join(lazy_pinyin(k, style=Style.NORMAL, v_to_u=True)) for k in keys]
    return [keys, readings]

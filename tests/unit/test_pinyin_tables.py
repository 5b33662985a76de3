"""A given name's syllables from fanyi's table of pypinyin's readings
(``text/pinyin_tables.py``) are pypinyin's: for every character it reads, every phrase of two,
every two characters that start a longer phrase, and pairs drawn at random; other text, and a
host without a table, go to pypinyin itself."""

import random

import pytest
from pypinyin import Style, lazy_pinyin
from pypinyin.constants import PHRASES_DICT, PINYIN_DICT

from fanyi.text import pinyin_tables
from fanyi.text.pinyin_tables import given_syllables


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path))
    pinyin_tables._table.cache_clear()
    yield tmp_path / f"{pinyin_tables.TABLE}.txt"
    pinyin_tables._table.cache_clear()


def pypinyin(text: str) -> list[str]:
    return lazy_pinyin(text, style=Style.NORMAL, v_to_u=True)


def test_the_table_reads_as_pypinyin(cache):
    chars = sorted(chr(c) for c in PINYIN_DICT)
    starts = {p[:2] for p in PHRASES_DICT if len(p) > 2}
    pairs = sorted({p for p in PHRASES_DICT if len(p) == 2} | starts)
    common = [c for c in chars if "\u4e00" <= c <= "\u9fff"]
    drawn = random.Random(0)
    pairs += ["".join(drawn.sample(common, 2)) for _ in range(20000)]
    assert given_syllables("小明") == ["xiao", "ming"] and cache.is_file()
    for text in chars + pairs:
        assert given_syllables(text) == pypinyin(text), text


def test_other_text_or_no_table_is_pypinyins(cache, monkeypatch):
    for text in ("欧阳小明", "", "a", "女", "吕"):
        assert given_syllables(text) == pypinyin(text)
    assert given_syllables("女") == ["nü"]
    cache.with_name("file").write_text("")
    monkeypatch.setenv("FANYI_CACHE", str(cache.with_name("file") / "below"))
    pinyin_tables._table.cache_clear()
    assert pinyin_tables._table() is None and given_syllables("天恩") == ["tian", "en"]

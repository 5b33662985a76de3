"""jieba's dictionary read from fanyi's sorted table (``text/jieba_tables.py``) answers as
jieba's own loading does: every word's count and tag, every prefix of a word 0, nothing else, the
same total; a stale or damaged table is written again, and where none can be written jieba loads
its dictionary itself."""

import os
import subprocess
import sys

import jieba
import jieba.posseg
import pytest

from fanyi.text import jieba_tables
from fanyi.text.jieba_tables import PrefixCounts, Table, WordTags, read_table, table_columns

DICTIONARY = jieba_tables.dictionary_file(jieba)


@pytest.fixture(scope="module")
def table():
    words, counts, tags, (total,) = table_columns(DICTIONARY)
    return Table(words, counts, tags, int(total))


def test_the_table_answers_as_jiebas_own_dictionaries(table):
    freq, total = jieba.Tokenizer().gen_pfdict(jieba.Tokenizer().get_dict_file())
    counts, tags = PrefixCounts(table), WordTags(table)
    assert table.total == total
    assert all(key in counts and counts[key] == count for key, count in freq.items())
    expected = jieba.posseg.POSTokenizer(jieba.Tokenizer()).word_tag_tab
    assert len(tags) == len(expected)
    assert all(tags.get(word) == tag for word, tag in expected.items())
    for text in ("", "王小明", "我叫王", "zzzq", "\U0002a6a5", "\uffff", "中华人民共和"):
        assert (text in counts, counts.get(text)) == (text in freq, freq.get(text))
        assert tags.get(text, "x") == expected.get(text, "x")
    with pytest.raises(KeyError):
        counts["zzzq"]


def test_a_stale_or_damaged_table_is_written_again(tmp_path, monkeypatch):
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path))
    small = tmp_path / "dict.txt"
    small.write_bytes(b"\xe4\xb8\xad\xe5\x9b\xbd 20 ns\r\nAB 3 nz\n\nB 2 n\nAB 4 eng\n")
    first = read_table(small)
    assert first is not None and first.words == ["AB", "B", "中国"]
    assert (first.counts, first.tags, first.total) == (["4", "2", "20"], ["eng", "n", "ns"], 29)
    written = tmp_path / f"{jieba_tables.TABLE}.txt"
    written.write_text(written.read_text(encoding="utf-8")[:-9], encoding="utf-8")
    assert read_table(small) == first  # cut short: written again
    small.write_bytes(b"B 5 n\n")
    assert read_table(small).words == ["B"]  # the dictionary changed


def test_without_a_cache_jieba_loads_its_dictionary_itself(tmp_path):
    (tmp_path / "file").write_text("")
    code = (
        "import jieba\nfrom fanyi.text.jieba_tables import posseg\n"
        "tagger = posseg()\nprint(type(jieba.dt.FREQ).__name__, tagger.lcut('我叫王小明。'))"
    )
    for cache, kind in ((tmp_path / "file" / "below", "dict"), (tmp_path / "ok", "PrefixCounts")):
        env = {**os.environ, "FANYI_CACHE": str(cache)}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split()[0] == kind
        assert "pair('王小明', 'nr')" in done.stdout

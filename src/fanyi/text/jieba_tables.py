"""jieba's part-of-speech tagger with its dictionary read from one sorted table, in a tenth of the
time jieba takes: the same words, tags and frequencies, so the same cuts and tags.

``jieba.initialize`` unmarshals a dict of every word and every prefix of a word (half a
million keys) and ``jieba.posseg`` parses ``dict.txt`` again for the tags: together about a
second of every start that reads a Chinese name. Here jieba's shipped ``dict.txt`` is written
once as one table sorted by word (``$FANYI_CACHE/jieba-dict.txt``, made again when jieba's
dictionary changes: ``table_cache.py``), read as three lists, and looked up by bisection:
``PrefixCounts`` answers for ``Tokenizer.FREQ`` (a word's count, 0 for a prefix of a word, no
entry else), ``WordTags`` for ``POSTokenizer.word_tag_tab``; they answer lookups only (fanyi
adds no word to jieba). Where the table can be neither read nor written, or jieba's dictionary
is not its default one, jieba loads as it always does.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
import threading
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .table_cache import Columns, cached_columns, files_key

TABLE = "jieba-dict"  # the table's name in the cache
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Table:
    """jieba's dictionary sorted by word: each word's count and tag (the last of a repeated
    word's lines, as jieba keeps), and the total of every line's count."""

    words: list[str]
    counts: list[str]  # decimal, read where looked up
    tags: list[str]
    total: int

    def find(self, key: str) -> int:
        """The index of the first word not before ``key``."""
        return bisect_left(self.words, key)


class PrefixCounts(Mapping[str, int]):
    """``jieba.Tokenizer.FREQ`` over a :class:`Table`: each word's count, 0 for a prefix of a
    word that is no word itself, nothing for any other string."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str) or not key:
            return False
        i, words = self.table.find(key), self.table.words
        return i < len(words) and words[i].startswith(key)

    def __getitem__(self, key: str) -> int:
        count = self.get(key)
        if count is None:
            raise KeyError(key)
        return count

    def get(self, key: str, default: Any = None) -> Any:
        i, words = self.table.find(key), self.table.words
        if i < len(words) and words[i] == key:
            return int(self.table.counts[i])
        return 0 if key and i < len(words) and words[i].startswith(key) else default

    def __iter__(self) -> Iterator[str]:
        """Every word and every prefix of one, each once."""
        seen: set[str] = set()
        for word in self.table.words:
            for end in range(1, len(word) + 1):
                if word[:end] not in seen:
                    seen.add(word[:end])
                    yield word[:end]

    def __len__(self) -> int:
        return sum(1 for _ in self)


class WordTags(Mapping[str, str]):
    """``jieba.posseg.POSTokenizer.word_tag_tab`` over a :class:`Table`: each word's tag."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __getitem__(self, key: str) -> str:
        i, words = self.table.find(key), self.table.words
        if i < len(words) and words[i] == key:
            return self.table.tags[i]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        i, words = self.table.find(key), self.table.words
        return self.table.tags[i] if i < len(words) and words[i] == key else default

    def __iter__(self) -> Iterator[str]:
        return iter(self.table.words)

    def __len__(self) -> int:
        return len(self.table.words)


def posseg() -> ModuleType:
    """``jieba.posseg``, its default tokenizer reading the table (jieba's own loading where the
    table cannot be had)."""
    import jieba

    with _LOCK:  # one thread sets jieba's tokenizer up; the others find it set
        loaded = "jieba.posseg" in sys.modules or jieba.dt.initialized
        if loaded or jieba.dt.dictionary != jieba.DEFAULT_DICT:
            return _as_jieba_loads(jieba)  # loaded already, or a dictionary of the user's
        table = read_table(dictionary_file(jieba))
        if table is None:
            return _as_jieba_loads(jieba)
        with _no_tags_read(jieba.dt):
            tagger = importlib.import_module("jieba.posseg")
        jieba.dt.FREQ, jieba.dt.total = PrefixCounts(table), table.total
        jieba.dt.initialized = True
        tagger.dt.word_tag_tab = WordTags(table)
        return tagger


def _as_jieba_loads(jieba: ModuleType) -> ModuleType:
    """``jieba.posseg`` with its dictionary loaded as jieba does (about a second)."""
    tagger = importlib.import_module("jieba.posseg")
    jieba.initialize()
    return tagger


@contextlib.contextmanager
def _no_tags_read(tokenizer: Any) -> Iterator[None]:
    """While ``jieba.posseg`` is imported, its tagger reads no dictionary: its module builds the
    default ``POSTokenizer``, which parses ``dict.txt`` for tags the table then gives."""
    tokenizer.get_dict_file = lambda: io.BytesIO()
    try:
        yield
    finally:
        del tokenizer.get_dict_file


def dictionary_file(jieba: ModuleType) -> Path:
    """jieba's default dictionary, as shipped in its package."""
    return Path(str(jieba.__file__)).parent / "dict.txt"


def read_table(source: Path) -> Table | None:
    """The table of jieba dictionary ``source``, from fanyi's cache (``table_cache.py``; made
    and written first where missing or stale); None where it can be neither read nor written."""
    columns = cached_columns(TABLE, files_key(source), lambda: table_columns(source))
    if columns is None or len(columns) != 4:
        return None
    words, counts, tags, (total,) = columns
    if not len(words) == len(counts) == len(tags):
        return None
    return Table(words, counts, tags, int(total))


def table_columns(source: Path) -> Columns:
    """The table of jieba dictionary ``source``, read as ``Tokenizer.gen_pfdict`` and
    ``POSTokenizer.load_word_tag`` read it (``WORD COUNT TAG`` a line, ASCII blanks stripped): its
    words sorted, their counts and tags, and the total count. A line of another shape is a
    ValueError: jieba then reads its dictionary itself, and says what is wrong."""
    counts: dict[str, str] = {}
    tags: dict[str, str] = {}
    total = 0
    for line in source.read_bytes().split(b"\n"):
        cells = line.strip().decode("utf-8").split(" ")
        if cells == [""]:
            continue
        word, count, tag = cells
        counts[word], tags[word] = str(int(count)), tag
        total += int(count)
    words = sorted(counts)
    return [words, [counts[w] for w in words], [tags[w] for w in words], [str(total)]]

"""The tables the name finder reads (``data/``, ``data/README.md``): the dictionary's names both
ways (``names.tsv``, then CedPane's foreign names and GeoNames' towns and cities into English,
``names-cedpane.tsv``, ``names-geonames.tsv``), surnames
with their pinyin, given names' characters by syllable and words that are no names."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .transform import ALTERNATIVES

DATA = Path(__file__).parent / "data"
WORD = re.compile(r"[A-Z][A-Za-z'\-]*")  # an English word that may start a name
FORMS = "|"  # between a name's forms in names-cedpane.tsv


@dataclass(frozen=True)
class Tables:
    """What the name finder reads (``data/``): each dictionary name into English and into
    Chinese, surnames with their pinyin, a given name's characters by syllable."""

    chinese: dict[str, str]  # Chinese name → English (forms apart by ALTERNATIVES)
    english: dict[str, str]  # English name → Chinese
    inside_only: frozenset[str]  # English names that are common words too: never a sentence's first
    surnames: dict[str, str]  # surname → pinyin, the most common first
    by_pinyin: dict[str, str]  # pinyin → the most common surname
    given: dict[str, str]  # syllable → a given name's character
    not_names: frozenset[str]  # words jieba tags as names that are common words (王子)
    longest: int  # the longest Chinese name, in characters
    by_first: dict[str, list[str]]  # English names by their first word, the longest first
    surname_starts: frozenset[str]  # the first characters of the surnames
    written: frozenset[str]  # names.tsv's English (names_spelt.py writes them in)
    foreign: frozenset[str]  # CedPane's and GeoNames' names that names.tsv lacks
    transliterating: frozenset[str]  # characters of CedPane's names seldom a word of their own


def _rows(name: str) -> Iterator[list[str]]:
    """The TAB-separated cells of each line of ``data/name`` (``#`` lines are comments)."""
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


@functools.cache
def tables() -> Tables:
    """The name tables, read once."""
    chinese, english, inside = {}, {}, set()
    for zh, en, ways in _rows("names.tsv"):
        chinese[zh] = en
        if ways != "z":
            english[en] = zh
        if ways == "c":
            inside.add(en)
    surnames = {zh: py for zh, py, *_ in _rows("surnames.tsv")}
    by_pinyin: dict[str, str] = {}
    for zh, py in surnames.items():
        by_pinyin.setdefault(py, zh)
    given = {py: zh for py, zh in _rows("given.tsv")}
    not_names = frozenset(row[0] for row in _rows("not-names.txt"))
    by_first: dict[str, list[str]] = {}
    for en in sorted(english, key=len, reverse=True):
        if first := WORD.match(en):
            by_first.setdefault(first.group(), []).append(en)
    written, known = frozenset(chinese.values()), frozenset(chinese)
    for zh, forms in [*_rows("names-cedpane.tsv"), *_rows("names-geonames.tsv")]:
        chinese.setdefault(zh, forms.replace(FORMS, ALTERNATIVES))
    transliterating = (DATA / "transliterating.txt").read_text(encoding="utf-8").strip()
    longest = max(map(len, chinese))
    return Tables(
        chinese,
        english,
        frozenset(inside),
        surnames,
        by_pinyin,
        given,
        not_names,
        longest,
        by_first,
        frozenset(surname[0] for surname in surnames),
        written,
        frozenset(chinese) - known,
        frozenset(transliterating),
    )

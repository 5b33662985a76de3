"""A line that is one dictionary entry alone, held to the entry's senses (``hold_names``).

A small model translates a set phrase or a word it has seldom seen on its own word by word or
as something else (请进 "to come in", 饺子 "to supple", "Airport" 阿尔港). Where a line, its
punctuation aside, is the headword of a CC-CEDICT entry (``data/entries.tsv``), its translation
is held to one of the entry's senses: into English any sense the dictionary gives ("Please come
in"; 谢谢 "Thank you" or "Thanks"), into Chinese any of the most common headwords (jieba's word
counts) whose first sense the English line is ("Airport" 机场, "Exit" 出口): a word jieba's
dictionary lists, and not a verb where the line is one word ("Water" is not 浇水 "to water"). The translation that already writes one is
kept; else the search chooses the form the model finds likeliest.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .lang import CHINESE, HAN
from .transform import ALTERNATIVES, Held

DATA = Path(__file__).parent / "data"
LONGEST = 8  # characters: a Chinese line longer than this is no entry looked up
MOST_WORDS = 6  # words: an English line longer than this is no entry looked up
MOST_FORMS = 4  # Chinese headwords held for one English line
_HAN_ONLY = re.compile(f"[{HAN}]+")
_ENGLISH = re.compile(r"[a-z][a-z' \-,é]*")


@dataclass(frozen=True)
class Entries:
    """Each headword's senses, the first first, and each English sense's headwords, the most
    common first."""

    chinese: dict[str, list[str]]
    english: dict[str, list[str]]


@functools.cache
def entries() -> Entries:
    """The entries of ``data/entries.tsv``, read once (a line that may be one asks first)."""
    chinese: dict[str, list[str]] = {}
    english: dict[str, list[str]] = {}
    for line in (DATA / "entries.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        headword, senses, count = line.split("\t")
        chinese[headword] = [sense.removeprefix("to ") for sense in senses.split("|")]
        first = senses.split("|")[0]
        if int(count) and (not first.startswith("to ") or " " in first[3:]):
            english.setdefault(_key(first.removeprefix("to ")), []).append(headword)
    return Entries(chinese, english)


def _key(text: str) -> str:
    """English as looked up: lower case, straight apostrophes, one space between words."""
    return " ".join(text.replace("\u2019", "'").lower().split())


def _core(sentence: str) -> str:
    """``sentence`` without the spaces and punctuation around it."""
    chars = list(sentence.strip())
    while chars and unicodedata.category(chars[-1])[0] in "PZ":
        chars.pop()
    while chars and unicodedata.category(chars[0])[0] in "PZ":
        chars.pop(0)
    return "".join(chars)


def whole_entry(sentence: str, source: str) -> Held:
    """The line ``sentence`` held to the dictionary entry it is alone, its forms joined by
    ALTERNATIVES; none where it is no entry."""
    core = _core(sentence)
    if source == CHINESE:
        if not 2 <= len(core) <= LONGEST or not _HAN_ONLY.fullmatch(core):
            return []
        senses = entries().chinese.get(core, [])
        forms = [sense[:1].upper() + sense[1:] for sense in senses]  # the line starts with it
    else:
        key = _key(core)
        if len(key.split()) > MOST_WORDS or not _ENGLISH.fullmatch(key):
            return []
        forms = entries().english.get(key, [])[:MOST_FORMS]
    return [(core, ALTERNATIVES.join(forms))] if forms else []

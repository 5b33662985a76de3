"""A line that is one dictionary entry alone, held to the entry's senses (``hold_names``).

A small model translates a set phrase or a word it has seldom seen on its own word by word or
as something else (请进 "to come in", 饺子 "to supple", "Airport" 阿尔港). Where a line, its
punctuation aside, is the headword of a CC-CEDICT entry (``data/entries.tsv.gz``), its translation
is held to one of the entry's senses: into English any sense the dictionary gives ("Please come
in"; 谢谢 "Thank you" or "Thanks"). Into Chinese an English line of two words or more is held to
any of the most common headwords (jieba's word counts) that give it as a sense ("Happy
birthday" 生日快乐, "Have a nice trip" 一帆风顺). A line of one English word is held only where
the model's truecasing table writes it in lower case and the dictionary gives it mostly as a
thing, first ("Airport" 机场; ``english_words``): a word alone has many senses ("Check" is 检查
more often than 支票, "Python" stays Python). A headword of two characters is held only
where jieba's dictionary lists it (骚瑞 is slang for "sorry"). The translation that already
writes one is kept; else the search chooses the form the model finds likeliest.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import re
import unicodedata
from collections.abc import Container
from pathlib import Path

from .lang import CHINESE, HAN
from .transform import ALTERNATIVES, Held

DATA = Path(__file__).parent / "data"
LONGEST = 8  # characters: a Chinese line longer than this is no entry looked up
MOST_WORDS = 6  # words: an English line longer than this is no entry looked up
MOST_FORMS = 4  # Chinese headwords held for one English line
SET_PHRASE = 3  # characters: a headword this long is held into Chinese though jieba lacks it
# jieba's count under which a headword is too rare to stand for an English word alone (套套,
# slang for "methods")
WORD_COUNT = 50
# Chinese lines looked up in the table's text before its rows are read into a mapping: a command
# that translates a few short lines does not split 80,000 rows (0.07 s)
FIRST_LOOKUPS = 64
_looked_up = itertools.count()
_HAN_ONLY = re.compile(f"[{HAN}]+")
_ENGLISH = re.compile(r"[a-z][a-z' \-,é]*")


@functools.cache
def _text() -> str:
    """``data/entries.tsv.gz`` as text, read once."""
    return gzip.decompress((DATA / "entries.tsv.gz").read_bytes()).decode("utf-8")


@functools.cache
def _rows() -> list[list[str]]:
    """The rows of ``data/entries.tsv.gz`` (headword, senses, jieba's count and tag)."""
    return [line.split("\t") for line in _text().splitlines() if not line.startswith("#")]


def chinese_senses(headword: str) -> str:
    """The senses of ``headword``, ``|`` between them ("" where it is no headword): found in the
    table's text for the first FIRST_LOOKUPS lines, then in ``chinese_entries``."""
    if next(_looked_up) >= FIRST_LOOKUPS:
        return chinese_entries().get(headword, "")
    text = _text()
    at = text.find(f"\n{headword}\t")  # the text starts with its header: every row after "\n"
    if at < 0:
        return ""
    start = at + len(headword) + 2
    return text[start : text.index("\t", start)]


@functools.cache
def chinese_entries() -> dict[str, str]:
    """Each headword's senses, ``|`` between them, the first first."""
    return {row[0]: row[1] for row in _rows()}


@functools.cache
def english_entries() -> dict[str, list[str]]:
    """Each English sense's headwords, the most common first (module docstring)."""
    first: dict[str, list[str]] = {}  # the headwords of each first sense
    later: dict[str, list[str]] = {}  # of each later sense of more than one word
    for headword, senses, count, _tag in _rows():
        if not int(count) and len(headword) < SET_PHRASE:
            continue  # a word jieba does not list: slang or dialect (骚瑞 "sorry")
        for n, sense in enumerate(senses.split("|")):
            words = sense.removeprefix("to ")
            if " " in words:  # a line of one English word is no entry looked up
                (later if n else first).setdefault(_key(words), []).append(headword)
    return {key: first.get(key, []) + later.get(key, []) for key in first | later}


@functools.cache
def english_words() -> dict[str, list[str]]:
    """Each English word's headwords that give it as a sense (no verb's: "check", not "to
    check"), the most common first; only words that jieba's counts give more as such a sense
    than as a verb's, and whose most common headword gives it first (机场 "airport"; not 例子
    "case; instance; example", 对象 "target; object": the word has other senses too)."""
    headwords: dict[str, list[str]] = {}
    first: set[str] = set()
    as_verb: dict[str, int] = {}
    as_thing: dict[str, int] = {}
    for headword, senses, count, _tag in _rows():  # the most common first
        if not int(count) and len(headword) < SET_PHRASE:
            continue
        for n, sense in enumerate(senses.split("|")):
            word = _key(sense.removeprefix("to "))
            if not word or " " in word:
                continue
            tally = as_verb if sense.startswith("to ") else as_thing
            tally[word] = tally.get(word, 0) + int(count)
            if tally is as_thing:
                if word not in headwords and not n and int(count) >= WORD_COUNT:
                    first.add(word)
                headwords.setdefault(word, []).append(headword)
    return {
        word: found
        for word, found in headwords.items()
        if word in first and as_thing[word] >= as_verb.get(word, 0)
    }


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


def whole_entry(sentence: str, source: str, lowercase: Container[str] = ()) -> Held:
    """The line ``sentence`` held to the dictionary entry it is alone, its forms joined by
    ALTERNATIVES; none where it is no entry. An English line of one word is looked up only
    where ``lowercase`` (the model's truecasing table) lists the word."""
    core = _core(sentence)
    if source == CHINESE:
        if not 2 <= len(core) <= LONGEST or not _HAN_ONLY.fullmatch(core):
            return []
        senses = chinese_senses(core)
        forms = [  # the line starts with it
            sense.removeprefix("to ")[:1].upper() + sense.removeprefix("to ")[1:]
            for sense in senses.split("|")
            if sense
        ]
    else:
        key = _key(core)
        if not 1 <= len(key.split()) <= MOST_WORDS or not _ENGLISH.fullmatch(key):
            return []
        if " " in key:
            forms = english_entries().get(key, [])[:MOST_FORMS]
        else:
            forms = english_words().get(key, [])[:MOST_FORMS] if key in lowercase else []
    return [(core, ALTERNATIVES.join(forms))] if forms else []

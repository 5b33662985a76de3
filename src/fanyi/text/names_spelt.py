"""Chinese names read by the model in pinyin: 李伟是我的同事。 is read as "Li Wei是我的同事。", 我住在台北。
as "我住在Taipei。" (``hold_names``, into English).

Held to "Li Wei" alone, the model still translates the given name's characters after writing it
(李伟是我的同事。 "Li Wei Hoti is my colleagues.", 陈静 "Chen Jing quiet", 杨帆 "Yang Fan sailor").
Where it reads the name in pinyin, it copies it and translates the rest ("Li Wei is my
colleagues."; 台北 held to "Taipei" read "I live north of the Taipei."). Rewritten are a person's
name the finder writes in pinyin (``names.in_pinyin``) and a dictionary name whose English reads
as its pinyin (台北 "Taipei", 李娜 "Li Na"; not a transliteration such as 安卡拉 "Ankara", which
the model then wrote "ankara"); others stay in Chinese, as the model reads them
better so (伦敦 "London", 长城 "Great Wall"; with 生日快乐 in English, the whole line was
copied). The name, written against the Chinese, is then held as a name in Latin letters
(``names_latin.py``).
"""

from __future__ import annotations

import difflib
from collections.abc import Collection

from .entries import whole_entry
from .lang import CHINESE
from .names import FOREIGN, INTRODUCTIONS, MY_NAME_IS, chinese_names, split_name, tables
from .pinyin_tables import given_syllables
from .transform import ALTERNATIVES

# how alike a dictionary name's English and its pinyin are, letters only, where it counts as
# written in pinyin (台北 "Taipei" 0.83, 杭州 "Hangzhou" 1; 伦敦 "London" 0.67)
LIKE_PINYIN = 0.8


def in_pinyin(sentence: str, terms: Collection[str] = (), every: bool = False) -> str:
    """``sentence`` (Chinese) with each name to be read in pinyin (``_person``) so written, the
    words that introduce a speaker's own name (我叫) left in Chinese; a line that is one
    dictionary entry alone as it stands, and a name inside or around one of ``terms`` (a user's
    glossary: 台北 "Taipei City") too. ``every``: each other dictionary name of one English
    form too, as its English with spaces around (旧金山 " San Francisco "), which the model
    copies whole, for a sentence searched again for its names: written against the Chinese,
    the model ran it into a word ("supervisionRepublican Party") more often, and took longer."""
    if whole_entry(sentence, CHINESE):
        return sentence
    for name, english in chinese_names(sentence):
        person, written = _person(name, english, every)
        if any(person in term or term in person for term in terms):
            continue
        if person and ALTERNATIVES not in written:
            spaced = every and not _person(name, english)[0]  # not read in pinyin otherwise
            sentence = sentence.replace(person, f" {written} " if spaced else written, 1)
    return sentence.strip() if every else sentence


def _person(name: str, english: str, every: bool = False) -> tuple[str, str]:
    """(the name, its English) of a name found that is to be read in pinyin, without the words
    that introduce it (我叫王小明 "My name is Wang Xiaoming": 王小明, "Wang Xiaoming"); empty
    where it is none: a dictionary name whose English is no pinyin (but with ``every``), a
    foreign person."""
    for words in INTRODUCTIONS:
        if name.startswith(words) and english.startswith(MY_NAME_IS + " "):
            name, english = name[len(words) :], english[len(MY_NAME_IS) + 1 :]
    if name in tables().chinese:
        return (name, english) if every or _like_pinyin(name, english) else ("", "")
    return (name, english) if split_name(name) else ("", "")


def _like_pinyin(name: str, english: str) -> bool:
    """Whether ``english`` reads as the pinyin of ``name``, letters only (LIKE_PINYIN), and
    ``name`` is no transliteration (安卡拉 "Ankara": a character of ``names.FOREIGN``)."""
    if any(c in FOREIGN for c in name):
        return False
    letters = "".join(c for c in english.lower() if c.isalpha())
    pinyin = "".join(given_syllables(name))
    return difflib.SequenceMatcher(None, pinyin, letters).ratio() >= LIKE_PINYIN

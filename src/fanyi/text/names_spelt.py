"""Chinese names read by the model as English writes them (``hold_names``, into English):
李伟是我的同事。 is read "Li Wei是我的同事。", 我住在台北。 "我住在Taipei。", 我搬到旧金山了。
"我搬到 San Francisco 了。".

Held to "Li Wei" alone, the model still translates the given name's characters after writing it
(李伟是我的同事。 "Li Wei Hoti is my colleagues.", 陈静 "Chen Jing quiet", 杨帆 "Yang Fan sailor").
Where it reads the name in pinyin, it copies it and translates the rest ("Li Wei is my
colleagues."; 台北 held to "Taipei" read "I live north of the Taipei."). Held to a name it
garbles, it placed the name where it had no word for it and still translated the characters
(旧金山: "28 San Francisco was found dead in … the old gold mountain"). So a person's name the
finder writes in pinyin (``names.in_pinyin``) and a dictionary name of one English form are
written as English writes them, then held as names in Latin letters (``names_latin.py``). One
whose English reads as its pinyin (台北 "Taipei", 李娜 "Li Na") is written against the Chinese;
another (旧金山 "San Francisco", 伦敦 "London") with spaces around, as a Latin name in Chinese
text the model copies whole: written against the Chinese it ran such names into words
("supervisionRepublican Party", "I live inLondon. London."). Left in Chinese: a line that is one
entry of ``entries.tsv.gz`` alone (谢谢！, held to its senses), a place that may be held as its
adjective (叙利亚 "Syria" or "Syrian") and a term of the user's glossary. A set phrase of the
name table is written in too (生日快乐 " Happy birthday "), and a line of it alone copied.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection

from .entries import whole_entry
from .lang import CHINESE
from .names import FOREIGN, located_names, split_name, tables
from .pinyin_tables import given_syllables
from .transform import ALTERNATIVES

# how alike a dictionary name's English and its pinyin are, letters only, where it counts as
# written in pinyin (台北 "Taipei" 0.83, 杭州 "Hangzhou" 1; 伦敦 "London" 0.67)
LIKE_PINYIN = 0.8


def in_latin(sentence: str, terms: Collection[str] = ()) -> str:
    """``sentence`` (Chinese) with each name to be read as English writes it (``_name``) so
    written, the words that introduce a speaker's own name (我叫) left in Chinese; a line that
    is one dictionary entry alone as it stands, and a name inside or around one of ``terms``
    (a user's glossary: 台北 "Taipei City") too."""
    if whole_entry(sentence, CHINESE):
        return sentence
    # the last first, by place; a speaker's own name without 我叫, which stays in Chinese
    for start, name, english in reversed(located_names(sentence, introduced=False)):
        glued = _glued(name, english)
        if glued is None or ALTERNATIVES in english:
            continue
        if any(name in term or term in name for term in terms):
            continue
        spelt = english if glued else f" {english} "
        sentence = sentence[:start] + spelt + sentence[start + len(name) :]
    return sentence.strip()


def _glued(name: str, english: str) -> bool | None:
    """Whether a name found is written in against the Chinese: a dictionary name where its
    English reads as its pinyin (else with spaces around), a person's name in pinyin always;
    None where it is neither (a name in Latin letters already)."""
    if name in tables().chinese:
        return _like_pinyin(name, english)
    return True if split_name(name) else None


def _like_pinyin(name: str, english: str) -> bool:
    """Whether ``english`` reads as the pinyin of ``name``, letters only (LIKE_PINYIN), and
    ``name`` is no transliteration (安卡拉 "Ankara": a character of ``names.FOREIGN``). A name
    is read two characters at a time, as ``given_syllables`` reads them from its table without
    loading pypinyin (a fifth of a second)."""
    if any(c in FOREIGN for c in name):
        return False
    letters = "".join(c for c in english.lower() if c.isalpha())
    pairs = (name[i : i + 2] for i in range(0, len(name), 2))
    pinyin = "".join(syllable for pair in pairs for syllable in given_syllables(pair))
    return difflib.SequenceMatcher(None, pinyin, letters).ratio() >= LIKE_PINYIN

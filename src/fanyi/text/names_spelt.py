"""Chinese persons' names read by the model in pinyin: 李伟是我的同事。 is read as "Li Wei是我的同事。"
(``hold_names``, into English).

Held to "Li Wei" alone, the model still translates the given name's characters after writing it
(李伟是我的同事。 "Li Wei Hoti is my colleagues.", 陈静 "Chen Jing quiet", 杨帆 "Yang Fan sailor").
Where it reads the name in pinyin, it copies it and translates the rest ("Li Wei is my
colleagues."). Only a person's name the finder writes in pinyin (``names.in_pinyin``) is
rewritten: a dictionary name (台北, 李娜) or a set phrase stays in Chinese, as the model reads
them better so (生日快乐 in English, the whole line is copied). The name, written against the
Chinese, is then held as a name in Latin letters (``names_latin.py``).
"""

from __future__ import annotations

from .entries import whole_entry
from .lang import CHINESE
from .names import INTRODUCTIONS, MY_NAME_IS, chinese_names, split_name, tables
from .transform import ALTERNATIVES


def in_pinyin(sentence: str) -> str:
    """``sentence`` (Chinese) with each person's name the finder writes in pinyin so written, the
    words that introduce a speaker's own name (我叫) left in Chinese; a line that is one
    dictionary entry alone as it stands."""
    if whole_entry(sentence, CHINESE):
        return sentence
    known = tables()
    for name, english in chinese_names(sentence):
        person, written = _person(name, english)
        if person and person not in known.chinese and ALTERNATIVES not in written:
            sentence = sentence.replace(person, written, 1)
    return sentence


def _person(name: str, english: str) -> tuple[str, str]:
    """(the name, its pinyin) of a name found, without the words that introduce it (我叫王小明
    "My name is Wang Xiaoming": 王小明, "Wang Xiaoming"); empty where it is none."""
    for words in INTRODUCTIONS:
        if name.startswith(words) and english.startswith(MY_NAME_IS + " "):
            name, english = name[len(words) :], english[len(MY_NAME_IS) + 1 :]
    return (name, english) if split_name(name) else ("", "")

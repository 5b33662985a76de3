"""Names and set phrases held to as the other language writes them: 台北 "Taipei", 长城 "Great
Wall", 王小明 "Wang Xiaoming", "Li Wei" 李伟, "Microsoft" 微软 (``hold_names``).

A small model trained on a few hundred thousand pairs translates a name it has seldom seen word
by word (台北 "north of the Taiwan", 长城 "the long town", 王小明 "the prince"). Where a sentence
holds a name and its translation does not hold the name as the other language writes it, the
sentence is searched again, held to it (``decode/constraints.py``). Names come from:

- a dictionary (``data/names.tsv``): CC-CEDICT's proper nouns, a few set phrases (新年快乐
  "Happy New Year") and a curated table of companies and universities (``data/README.md``). In
  Chinese a name is found at the word boundaries jieba cuts (美国 is not in 美国人); in English
  as written, its first word capitalised;
- into English, CedPane's foreign names that the dictionary lacks (``data/names-cedpane.tsv``:
  菲利普 "Philip"), none inside a longer transliteration (纽马基特 holds no 基特);
- Chinese person names jieba tags ``nr`` that start with a surname of ``data/surnames.tsv``:
  into English in pinyin as people write them, surname first, the given name joined (王小明
  "Wang Xiaoming", 欧阳修 "Ouyang Xiu", 李天恩 "Li Tian'en");
- Chinese names in pinyin in English ("Li Wei"): a surname of the table, then a given name of
  one or two syllables that ``data/given.tsv`` writes (李伟). English names of other origin the
  dictionary lists ("Tom" 汤姆) are held to its transliteration; others are left to the model;
- names in Latin letters written against Chinese text (CNN的), as written (``names_latin.py``).
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
import threading
import unicodedata
from collections.abc import Container
from typing import Any

from .entries import whole_entry
from .lang import CHINESE, HAN
from .names_latin import latin_names
from .names_tables import WORD, Tables, tables
from .transform import ALTERNATIVES, Held

# a name this short is found only as a word of its own (上都 "Shangdu" is not in 上 都)
SHORT_NAME = 3
NATIONALITY = "人"  # 美国人 is "Americans", not the country's name
NAME_DOTS = ("·", "•", "・")  # between the parts of a foreign name: 弗拉基米尔·普京
INTRODUCTIONS = ("我叫", "我名叫", "我的名字叫", "我的名字是")  # before the speaker's own name
MY_NAME_IS = "My name is"
MOST_FORMS = 3  # a joined name's forms held (forms of its parts paired)
MOST_NAMES = 4  # held in one sentence: more, and the held search writes a list of names
PERSON_TAGS = ("nr", "nrfg")  # jieba's tags of a person's name
# what follows a surname where it is no given name: a title (李先生 "Mr Li", 王老师, 张某), a
# kind of place or thing (白马河, 白桦树), a particle (高高的, 安则) or 裔 ("of … descent": 华裔)
TITLES = frozenset([
    "先生", "女士", "小姐", "太太", "夫人", "老师", "师傅", "医生", "教授", "同学",
    "阿姨", "叔叔", "大爷", "大妈", "经理", "主任", "部长", "局长", "书记", "校长",
    "院长", "博士", "总", "某", "家", "氏", "姓", "哥", "姐", "嫂", "老", "队",
    "局", "市", "县", "省", "区", "河", "湖", "树", "的", "们", "则", "裔",
])  # fmt: skip
# characters of transliterated foreign names (戴夫 Dave, 霍伊 Hoy, 詹宁斯 Jennings) that a Chinese
# given name seldom ends with, or (FOREIGN_ANY) seldom holds at all: CC-CEDICT's foreign persons
# use them often, its Chinese persons' given names almost never
FOREIGN_LAST = frozenset("伊米普夫兹顿逊格曼克尼森特卡塔萨坦登肯察")
FOREIGN_ANY = frozenset("斯尔姆蒂迪茨瑟弗")
# after a name of two characters, a character that carries on a transliteration (梅斯卡尔,
# 萨尔兹堡, 卡特琳娜 "Katrina", 玛丽娜 "Marina") and is seldom a word of its own (伦敦塔 is the
# Tower of London)
FOREIGN_AFTER = FOREIGN_ANY | frozenset("卡尼兹萨坦琳娜")
FOREIGN = FOREIGN_LAST | FOREIGN_AFTER
PLACE_ENDS = ("ia", "ca", "ea")  # Syria, America, Korea: "Syrian", "American", "Korean"
ADJECTIVE_FROM = 5  # letters: a shorter name ("Xia") may be a syllable of pinyin
COLOURS = frozenset("红黄蓝绿青紫黑白灰")  # 蓝白 "blue and white", 黑白: no Lan Bai
# a two-character given name that jieba's dictionary counts this often as a common word (水平
# "level" in 高水平, 时间, 眼镜) is that word; names jieba's tags mark as such stay (建国, 小龙)
COMMON_GIVEN = 500
NAME_TAGS = ("nr", "ns", "nz", "nt")
# pinyin surnames that are English words too ("He said", "You can"): not read as a name
ENGLISH_WORDS = frozenset({"he", "you", "an", "long", "fan", "bo", "man", "gu", "sun", "mi"})
_GIVEN = re.compile(r"[A-Z][a-zü]+(?:'[a-zü]+)?")
_HAN_ONLY = re.compile(f"[{HAN}]+")
_BRACKETED = re.compile(r"\s*[(（]\s*[A-Za-z]")  # a name in Latin letters in brackets
# what just before and after a person's name, or a dictionary name of two characters (梅斯卡尔
# holds neither 梅斯 "Metz" nor 卡尔 "Karl"), makes it part of a longer transliteration
_PERSON_IN = (FOREIGN_ANY | set(NAME_DOTS), FOREIGN_AFTER | set(NAME_DOTS))
_NAME_IN = (FOREIGN_LAST | FOREIGN_ANY, FOREIGN_AFTER)


_JIEBA_LOCK = threading.Lock()  # jieba's tokenizer is one global object


@functools.cache
def _tagger() -> Any:
    """jieba's part-of-speech tagger, its dictionary loaded (once: from a sorted table,
    ``jieba_tables.py``)."""
    import jieba

    from .jieba_tables import posseg

    jieba.setLogLevel(logging.WARNING)
    return posseg()


@functools.lru_cache(maxsize=256)
def tagged(sentence: str) -> tuple[tuple[str, str], ...]:
    """The words of a Chinese ``sentence`` as jieba cuts them, each with its tag; kept for the
    last sentences, which ``hold_names`` reads twice where it writes no name in Latin letters
    (``names_spelt.py``, then ``held``)."""
    with _JIEBA_LOCK:
        return tuple((pair.word, pair.flag) for pair in _tagger().cut(sentence))


def in_pinyin(surname: str, given: str) -> str:
    """A Chinese name as English writes it: the surname's pinyin, then the given name's joined
    (an apostrophe before a syllable that starts with a, o or e), each capitalised."""
    from .pinyin_tables import given_syllables  # pypinyin's, without loading it (a fifth of a s)

    syllables = given_syllables(given)
    joined = syllables[0] + "".join(("'" if s[0] in "aoe" else "") + s for s in syllables[1:])
    return f"{tables().surnames[surname].capitalize()} {joined.capitalize()}"


def split_name(word: str) -> tuple[str, str] | None:
    """(surname, given name) of a Chinese person's name (a compound surname first), or None
    where ``word`` does not read as one: no surname of the table, no given name of one or two
    characters, a title after the surname (李先生), a common word or one that starts with one
    (王子, 谢谢您), a given name that reads as none (``_may_be_given``)."""
    known = tables()
    if word in known.not_names or word[:2] in known.not_names or not _HAN_ONLY.fullmatch(word):
        return None
    for size in (2, 1):
        surname, given = word[:size], word[size:]
        if surname in known.surnames and 1 <= len(given) <= 2:
            return (surname, given) if _may_be_given(surname, given) else None
    return None


def _may_be_given(surname: str, given: str) -> bool:
    """Whether ``given`` after ``surname`` may be a Chinese given name: no title (李先生), no
    particle (高高的), no surname repeated, not only colours (蓝白), no transliteration (戴夫,
    詹宁斯) and no common word of two characters (高水平)."""
    if given in TITLES or given[0] in TITLES or given[-1] in TITLES or given[0] == surname:
        return False
    if set(surname + given) <= COLOURS or given[-1] in FOREIGN_LAST:
        return False
    if any(c in FOREIGN_ANY for c in given):
        return False
    return len(given) == 1 or not _common_word(given)


def _common_word(word: str) -> bool:
    """Whether jieba's dictionary counts ``word`` at least COMMON_GIVEN times, tagged as no
    name."""
    tagger = _tagger()
    tag = tagger.dt.word_tag_tab.get(word, "")
    return tagger.dt.tokenizer.FREQ.get(word, 0) >= COMMON_GIVEN and not tag.startswith(NAME_TAGS)


def chinese_names(sentence: str) -> Held:
    """The names of a Chinese ``sentence`` with their English: the dictionary's, the longest at
    jieba's word boundaries, persons' names in pinyin and names in Latin letters as written
    (``names_latin.py``), in the order the sentence gives them."""
    return [(name, english) for _, name, english in located_names(sentence)]


def located_names(sentence: str, introduced: bool = True) -> list[tuple[int, str, str]]:
    """``chinese_names`` of ``sentence``, each with where it starts; without ``introduced``, a
    speaker's own name without the words that give it (王小明 "Wang Xiaoming", not 我叫王小明
    "My name is Wang Xiaoming")."""
    known = tables()
    found = _found(sentence) if _may_name(sentence) else []  # else jieba not run for nothing
    taken = {at for start, name, _ in found for at in range(start, start + len(name))}
    found += [name for name in latin_names(sentence, known.written) if name[0] not in taken]
    joined = _joined(sorted(found), sentence)
    return [_introduced(*name, sentence) for name in joined] if introduced else joined


def _found(sentence: str) -> list[tuple[int, str, str]]:
    """(start, name, English) of the dictionary's names and persons' names in ``sentence``."""
    known, words = tables(), tagged(sentence)
    starts, at = [], 0
    for word, _ in words:
        starts.append(at)
        at += len(word)
    ends = {*starts[1:], at}
    found, i = [], 0
    while i < len(words):
        start, word, tag = starts[i], *words[i]
        end = next(
            (
                e
                for e in range(min(at, start + known.longest), start, -1)
                if e in ends
                and sentence[start:e] in known.chinese
                and (e - start > SHORT_NAME or e == start + len(word))
            ),
            None,
        )
        if end is not None:
            inside = _inside(sentence, start, end, known)
            if not sentence.startswith(NATIONALITY, end) and not inside:
                found.append((start, sentence[start:end], _or_adjective(sentence[start:end])))
            i = starts.index(end) if end < at else len(words)
            continue
        if tag in PERSON_TAGS and (parts := _chinese_person(sentence, start, word)):
            found.append((start, word, in_pinyin(*parts)))
        i += 1
    return found


def _inside(sentence: str, start: int, end: int, known: Tables) -> bool:
    """Whether the dictionary name ``sentence[start:end]`` is part of a longer transliteration:
    of two characters, a character of transliteration (FOREIGN) beside it (梅斯卡尔 holds no 梅斯);
    of CedPane's, one of its characters of transliteration beside it (纽马基特 holds no 基特), or
    brackets after it that give the name in Latin letters (李察 (Gordon Richards))."""
    if sentence[start:end] in known.foreign:
        around = (known.transliterating, known.transliterating)
        return bool(_BRACKETED.match(sentence, end)) or _beside(sentence, start, end, around)
    return end - start == 2 and _beside(sentence, start, end, _NAME_IN)


def _chinese_person(sentence: str, start: int, word: str) -> tuple[str, str] | None:
    """``split_name(word)``, or None where ``word`` is part of a transliterated name: a name dot
    beside it (艾玛·斯通), or a character of transliteration just before or after (西米德兰兹郡);
    or where brackets after it give the name in Latin letters (柏葛 (Lester Piggott))."""
    end = start + len(word)
    if _BRACKETED.match(sentence, end) or _beside(sentence, start, end, _PERSON_IN):
        return None
    return split_name(word)


def _beside(sentence: str, start: int, end: int, around: tuple[frozenset[str], ...]) -> bool:
    """Whether the character before ``sentence[start:end]`` or the one after is of ``around``."""
    return sentence[max(start - 1, 0) : start] in around[0] or sentence[end : end + 1] in around[1]


def _or_adjective(name: str) -> str:
    """The dictionary's English for ``name``, or for a place of one word in -ia, -ca or -ea
    also its adjective in -n, either held (叙利亚边境 "the Syrian border", 俄罗斯战机 "a Russian
    fighter"): where only the name were held, the search would write it alone."""
    english = tables().chinese[name]
    if len(english) >= ADJECTIVE_FROM and english.isalpha() and english.endswith(PLACE_ENDS):
        return f"{english}{ALTERNATIVES}{english}n"
    return english


def _joined(found: list[tuple[int, str, str]], sentence: str) -> list[tuple[int, str, str]]:
    """The names ``found`` (each with its start), those written one after another with a name
    dot between (弗拉基米尔·普京) held as one name, each English word once ("Vladimir Putin");
    a name in characters whose brackets give it in Latin letters left to those (杰弗里·迪恩·摩根
    (Jeffrey Dean Morgan))."""
    held: list[tuple[int, str, str]] = []
    for start, name, english in found:
        if held and sentence[held[-1][0] + len(held[-1][1]) : start] in NAME_DOTS:
            first, _, written = held.pop()
            name, english, start = (
                sentence[first : start + len(name)],
                _join(written, english),
                first,
            )
        held.append((start, name, english))
    return [
        (start, name, english)
        for start, name, english in held
        if not (_HAN_ONLY.search(name) and _BRACKETED.match(sentence, start + len(name)))
    ]


def _join(first: str, second: str) -> str:
    """The English of two parts of a name (each of one or more forms), each word once: every
    pair of forms, the first MOST_FORMS ("Jeffrey|Geoffrey" and "Dean": "Jeffrey Dean|Geoffrey
    Dean")."""
    forms = []
    for one, other in itertools.product(first.split(ALTERNATIVES), second.split(ALTERNATIVES)):
        words = [w for w in one.split(" ") if w not in other.split(" ")] + other.split(" ")
        forms.append(" ".join(words))
    return ALTERNATIVES.join(list(dict.fromkeys(forms))[:MOST_FORMS])


def _introduced(start: int, name: str, english: str, sentence: str) -> tuple[int, str, str]:
    """(start, name, English), or with the words that introduce it where the speaker gives it as
    their own, the name ending the clause (我叫王小明。: "My name is Wang Xiaoming", which the
    model writes "I called"; not 我叫王小明来 "I told Wang Xiaoming to come"), spaces around the
    name aside (我叫 Anna 。, as ``names_spelt.py`` writes it)."""
    after = sentence[start + len(name) :].lstrip()[:1]
    before = sentence[:start].rstrip()
    for words in INTRODUCTIONS:
        if before.endswith(words) and (not after or unicodedata.category(after)[0] == "P"):
            forms = english.split(ALTERNATIVES)
            at = len(before) - len(words)
            held = ALTERNATIVES.join(f"{MY_NAME_IS} {form}" for form in forms)
            return at, sentence[at : start + len(name)], held
    return start, name, english


def _may_name(sentence: str) -> bool:
    """Whether ``sentence`` holds a character a surname starts with, or a dictionary name."""
    known = tables()
    if any(c in known.surname_starts for c in sentence):
        return True
    ends = range(1, known.longest + 1)
    return any(sentence[i : i + n] in known.chinese for i in range(len(sentence)) for n in ends)


def given_in_hanzi(given: str) -> str | None:
    """A given name in pinyin ("Xiaoming", "Wei", "Tian'en") in the characters of the table,
    one or two syllables; None where a syllable is not in it."""
    known, letters = tables().given, given.lower()
    if letters in known:
        return known[letters]
    if "'" in letters:  # the syllables apart already
        parts = letters.split("'")
        found = [known.get(part) for part in parts]
        return "".join(found) if len(parts) == 2 and all(found) else None  # type: ignore[arg-type]
    for cut in range(1, len(letters)):
        first, second = letters[:cut], letters[cut:]
        if first in known and second in known:
            return known[first] + known[second]
    return None


def english_names(sentence: str) -> Held:
    """The names of an English ``sentence`` with their Chinese: the dictionary's (the longest
    at each capitalised word) and Chinese names in pinyin ("Li Wei")."""
    known, found, taken = tables(), [], 0
    first = WORD.search(sentence)
    for match in WORD.finditer(sentence):
        if match.start() < taken:
            continue
        name = _dictionary_name(sentence, match.start(), known)
        if name and not (name in known.inside_only and first and match.start() == first.start()):
            found.append((name, known.english[name]))
            taken = match.start() + len(name)
        elif person := _pinyin_name(sentence, match.start()):
            found.append(person)
            taken = match.start() + len(person[0])
    return found


def _dictionary_name(sentence: str, start: int, known: Tables) -> str | None:
    """The longest dictionary name at ``start`` of ``sentence``: its first word as written, the
    words after it in any case, a whole word."""
    first = WORD.match(sentence, start)
    word = first.group() if first else ""
    for name in known.by_first.get(word, ()):
        text = sentence[start : start + len(name)]
        whole = not sentence[start + len(name) : start + len(name) + 1].isalnum()
        if whole and text.lower() == name.lower() and text.startswith(word):
            return name
    return None


def _pinyin_name(sentence: str, start: int) -> tuple[str, str] | None:
    """("Li Wei", 李伟) where a pinyin surname of the table and a given name of the table start
    at ``start`` of ``sentence``."""
    match = re.match(r"([A-Z][a-zü]+) (" + _GIVEN.pattern + r")\b", sentence[start:])
    if match is None or match.group(1).lower() in ENGLISH_WORDS:
        return None
    surname = tables().by_pinyin.get(match.group(1).lower())
    given = given_in_hanzi(match.group(2))
    if surname is None or given is None:
        return None
    return match.group(), surname + given


def names_to_hold(sentence: str, source: str, lowercase: Container[str] = ()) -> Held:
    """The names of ``sentence`` (in ``source``) with what the other language writes for
    each, the first MOST_NAMES, each once; or where the line is one dictionary entry alone
    (``entries.py``; ``lowercase``: the model's truecasing table), its senses (a Chinese entry
    before the names in it)."""
    if source == CHINESE and (entry := whole_entry(sentence, source)):
        return entry  # 中国菜 "Chinese cuisine", not 中国 "China"
    found = chinese_names(sentence) if source == CHINESE else english_names(sentence)
    return list(dict.fromkeys(found))[:MOST_NAMES] or whole_entry(sentence, source, lowercase)

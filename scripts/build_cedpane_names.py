"""Write ``src/fanyi/text/data/names-cedpane.tsv`` from CedPane, a public-domain list of the ways
Chinese text writes foreign names (菲利普 "Philip", 格拉夫顿 "Grafton", 罗曼诺夫 "Romanov").

    .venv/bin/python scripts/build_cedpane_names.py CedPane-ChinaScribe.txt

The input is CedPane's CEDICT-format file (``other-formats/CedPane-ChinaScribe.txt`` of
<https://github.com/ssb22/CedPane>; Silas S. Brown, public domain: Unlicense / PDDL). Nothing is
downloaded. A row is Chinese<TAB>English, the English's forms separated by ``|`` (莱尼
"Lenny|Laney|Leni": the held search writes the one the model reads best). Kept: a headword of
two characters or more (Han characters and ``·`` only) that

- ``names.tsv`` lacks (CC-CEDICT's name wins), that is no CC-CEDICT common word and that jieba
  does not count as a common word (COMMON_COUNT, tagged as no name);
- does not end in 人 (a people: 加拿大人 "Canadian" or "Canadians") and is no Chinese place with
  its kind after it (小村镇 "Xiaocun (town)": a common phrase too, "small villages and towns");
- has a sense that is a name: capitalised words (joining words aside), no comma (CedPane's
  "Department, Art" turns a sense round), no digit, notes in brackets left out; and none in a
  common English word (``proper_nouns``' lower-case gloss words: "Art Department" is no name;
  迪恩 "Dean" or "Deanne" is left out whole, since "Dean" is a common word too).

Into English only: Chinese text often keeps a foreign name in Latin letters.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections import Counter
from pathlib import Path

import jieba
from build_names_table import DATA, JOINING, MOST_WORDS, NOTE, proper_nouns, read_cedict

LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
HEADWORD = re.compile(r"[\u4e00-\u9fff][\u4e00-\u9fff·]*[\u4e00-\u9fff]")
NAME_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['\-][^\W\d_]+)*")
# a character of transliteration: in this many CedPane names, and in them at least this often for
# each count jieba gives it as a word of its own (尔, 斯, 诺, 塞; not 的, 先, 大)
TRANSLITERATING = 30
TRANSLITERATING_SHARE = 0.02
# kinds of place and 语 "language": they follow a name (伊斯顿县, 多纳河), so tell of no longer one
PLACE_KINDS = frozenset("县镇村乡庄店河溪江山桥塘湖语区市省州岛港湾城")
PEOPLE = "人"  # 加拿大人 is "a Canadian" or "Canadians": no one form to hold
COMMON_COUNT = 100  # jieba counts a word of no name's tag this often: a common word
NAME_TAGS = ("nr", "ns", "nt", "nz")
MOST_FORMS = 3  # a name's forms held: more, and the held search has too many to choose from
NOT_A_NAME = re.compile(r"abbr|\bsee\b|variant|surname|\bCL:", re.I)


def senses(glosses: str, common: set[str]) -> list[str]:
    """The senses of a CedPane entry that are names, notes left out, each once, the first
    MOST_FORMS."""
    found: list[str] = []
    for sense in glosses.split("/"):
        if NOT_A_NAME.search(sense):
            continue
        text = " ".join(NOTE.sub(" ", sense).split())
        words = text.split()
        if not words or len(words) > MOST_WORDS or words[0] in JOINING:
            continue
        forms = name_forms(text, common)
        if forms is None:
            continue
        if not forms:
            return []  # a name that is a common word too ("Dean"): its other forms mislead
        found += [form for form in forms if form not in found]
    return found[:MOST_FORMS]


def name_forms(
    text: str, common: set[str], word: re.Pattern[str] = NAME_WORD, any_case: bool = False
) -> list[str] | None:
    """``text`` and, where it has accents, ``text`` without them, if its words (joining words
    aside, capitalised too with ``any_case``: "La Plata") are each a ``word``; None where one is
    not, [] where one is a common English word (``common``: ``proper_nouns``' lower-case gloss
    words)."""
    named = [w for w in text.split() if (w.lower() if any_case else w) not in JOINING]
    if not all(word.fullmatch(w) for w in named):
        return None
    if any(f"\0{w.lower()}" in common for w in named):
        return []
    return list(dict.fromkeys((text, _unaccented(text))))


def _unaccented(text: str) -> str:
    """``text`` without its accents, as English text often writes a name ("Hernandez")."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def jieba_words() -> tuple[set[str], Counter[str]]:
    """jieba's words counted at least COMMON_COUNT times under a tag of no name, and each
    character's count as a word of its own."""
    path = Path(jieba.__file__).parent / "dict.txt"
    common, alone = set(), Counter[str]()
    for line in path.read_text(encoding="utf-8").splitlines():
        word, count, tag = line.split(" ")
        if int(count) >= COMMON_COUNT and not tag.startswith(NAME_TAGS):
            common.add(word)
        if len(word) == 1:
            alone[word] = int(count)
    return common, alone


def transliterating(names: list[str], alone: Counter[str]) -> str:
    """The characters of transliteration in ``names`` (TRANSLITERATING), in code point order:
    a name found beside one is part of a longer name (纽马基特 "Newmarket" holds no 基特)."""
    counts = Counter(c for name in names for c in name if c != "·")
    return "".join(
        sorted(
            c
            for c, n in counts.items()
            if n >= TRANSLITERATING
            and n >= TRANSLITERATING_SHARE * (alone[c] + 100)
            and c not in PLACE_KINDS
        )
    )


def read_cedpane(path: Path) -> list[tuple[str, str, str]]:
    """(simplified headword, pinyin, glosses) of each entry of CedPane's CEDICT-format file."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if (match := LINE.match(line)) and HEADWORD.fullmatch(match.group(2)):
            rows.append((match.group(2), match.group(3), match.group(4)))
    return rows


def chinese_place(pinyin: str, glosses: str) -> bool:
    """Whether an entry is a Chinese place with its kind after it (小村镇 "Xiaocun (town)", 美溪区
    "Meixi District"): the first word of its first sense is the start of its pinyin, shorter.
    Such a headword is often a common phrase too (小村镇 "small villages and towns")."""
    letters = re.sub(r"[^a-z]", "", pinyin.lower())
    first = re.sub(r"[^a-z]", "", glosses.split("/")[0].split(" ")[0].lower())
    return bool(first) and letters.startswith(first) and len(first) < len(letters)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cedpane", type=Path, help="CedPane-ChinaScribe.txt (CEDICT format)")
    args = parser.parse_args()
    known = {row.split("\t")[0] for row in (DATA / "names.tsv").read_text("utf-8").splitlines()}
    common_headwords, common = set(), set()
    _, everything = proper_nouns(read_cedict())
    for word in everything:
        (common if word.startswith("\0") else common_headwords).add(word)
    jieba_common, alone = jieba_words()
    skip = known | common_headwords | jieba_common
    names: dict[str, list[str]] = {}
    for zh, pinyin, glosses in read_cedpane(args.cedpane):
        if zh in skip or zh.endswith(PEOPLE) or chinese_place(pinyin, glosses):
            continue
        if forms := senses(glosses, common):
            names.setdefault(zh, [])
            names[zh] += [f for f in forms if f not in names[zh]][: MOST_FORMS - len(names[zh])]
    rows = [f"{zh}\t{'|'.join(forms)}\n" for zh, forms in sorted(names.items())]
    (DATA / "names-cedpane.tsv").write_text("".join(rows), encoding="utf-8")
    chars = transliterating(list(names), alone)
    (DATA / "transliterating.txt").write_text(chars + "\n", encoding="utf-8")
    print(f"names-cedpane.tsv: {len(rows)} names; transliterating.txt: {len(chars)} characters")


if __name__ == "__main__":
    main()

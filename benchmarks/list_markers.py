"""List items ("1. Open the file."), translated three ways: their number cut off as a sentence of
its own (what fanyi did before ``keep_list_markers``), read with the item (the option off), and
read apart and written back in front (the option on).

The WMT sets hold few list items (``real``: the lines of ``fanyi data wmt-news``'s files whose
source starts with a marker, ``list_markers.list_marker``), so each set's first ``--lines``
pairs are also numbered as a list ("1. ", "2. ", … on both sides): newstest2017 (the dev split,
``dev.tsv``, both ways: choose on this one), newstest2020 (test, both ways). Scores BLEU, chrF
and length ratio (sacreBLEU) per set and way. Ends with one JSON line.

    python benchmarks/list_markers.py [-m MODEL] [--sources data/sources] [--lines 100]
"""

from __future__ import annotations

from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.lang import join_sentences
from fanyi.text.list_markers import list_marker
from fanyi.translate.translator import Translator

# set name → (file, the column of its source, the language it is translated into)
SETS = {
    "newstest2017 (dev) en→zh": ("dev.tsv", 0, "zh"),
    "newstest2017 (dev) zh→en": ("dev.tsv", 1, "en"),
    "newstest2019 zh→en": ("newstest2019.zh-en.tsv", 1, "en"),
    "newstest2020 en→zh": ("newstest2020.en-zh.tsv", 0, "zh"),
    "newstest2020 zh→en": ("newstest2020.zh-en.tsv", 1, "en"),
}


def pairs(path: Path, source: int) -> list[tuple[str, str]]:
    """(source, reference) of each line of an English<TAB>Chinese<TAB>… file."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    return [(row[source], row[1 - source]) for row in rows]


def numbered(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``rows`` as the items of a list, numbered on both sides."""
    return [(f"{n}. {src}", f"{n}. {ref}") for n, (src, ref) in enumerate(rows, 1)]


def as_its_own_sentence(translator: Translator, sources: list[str], to: str) -> list[str]:
    """Each item's marker and the item translated as two sentences and joined (as before)."""
    cut = [list_marker(s) for s in sources]
    markers = translator([m.marker for m, _ in cut], to=to, keep_list_markers=False)
    items = translator([item for _, item in cut], to=to)
    return [join_sentences([m, i], to) for m, i in zip(markers, items, strict=True)]


def three_ways(translator: Translator, rows: list[tuple[str, str]], to: str) -> dict:
    sources, refs = [s for s, _ in rows], [r for _, r in rows]
    outputs = {
        "own_sentence": as_its_own_sentence(translator, sources, to),
        "with_item": translator(sources, to=to, keep_list_markers=False),
        "apart": translator(sources, to=to),
    }
    return {"lines": len(rows)} | {way: scored(h, refs, to) for way, h in outputs.items()}


def main() -> None:
    parser = off_and_on_parser(__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100, help="pairs numbered per set")
    args = parser.parse_args()
    translator = off_and_on_translator(args)
    results: dict = {}
    for name, (file, source, to) in SETS.items():
        path = Path(args.sources) / "wmt-news" / file
        if not path.is_file():
            results[name] = "missing"
            continue
        rows = pairs(path, source)
        real = [(s, r) for s, r in rows if list_marker(s)[0].marker]
        results[name] = {"numbered": three_ways(translator, numbered(rows[: args.lines]), to)}
        if real:
            results[name]["real"] = three_ways(translator, real, to)
        print(name, results[name], flush=True)
    emit_off_and_on("list_markers", args, results, lines=args.lines)


if __name__ == "__main__":
    main()

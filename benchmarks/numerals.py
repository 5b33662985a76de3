"""Numbers, translated with and without reading them as the model copies them (``keep_numbers``).

Takes the lines of the WMT sets that ``fanyi data wmt-news`` wrote whose source holds such a
number: newstest2017 (its dev split, ``dev.tsv``, both directions: choose on this one),
newstest2019 and newstest2020 (test), each direction. ``--select grouped`` (the default) takes
the lines with a number in groups of three digits ("1,400,000", read as 1400000) and counts
those numbers; ``--select beside-han`` the Chinese lines with a digit against a Han character
("2024年3月1日", read as "2024 年 3 月 1 日") and counts every number but a month's (which
English writes as a name). Scores each set's lines (the first ``--lines``, all by default) with
``keep_numbers`` off and on (``hold_numbers`` off): BLEU, chrF, length ratio (sacreBLEU; tok:zh
into Chinese), the numbers the translation keeps (as written, or without the commas) and the
seconds it took.
``--select held`` takes every line with a number a translation keeps as digits
(``numerals.numbers_to_hold``), counts those numbers kept as whole numbers, and compares
``hold_numbers`` off and on instead. Ends with one JSON line.

    python benchmarks/numerals.py [-m MODEL] [--sources data/sources] [--threads 2]
                                  [--dtype fp32] [--select grouped|beside-han|held] [--lines N]
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.numerals import (
    BESIDE_HAN,
    grouped_numbers,
    numbers_to_hold,
    set_apart,
    ungroup,
    whole,
)
from fanyi.translate.translator import Translator

SETS = {  # (file, direction); dev.tsv holds newstest2017 English<TAB>Chinese, read both ways
    "newstest2017 (dev) en→zh": ("dev.tsv", "zh"),
    "newstest2017 (dev) zh→en": ("dev.tsv", "en"),
    **{f"newstest{y} en→zh": (f"newstest{y}.en-zh.tsv", "zh") for y in (2019, 2020)},
    **{f"newstest{y} zh→en": (f"newstest{y}.zh-en.tsv", "en") for y in (2019, 2020)},
}


NUMBER = re.compile(r"\d+(?:\.\d+)?")
MONTH = re.compile(r"\d+(?=\s*月)")
OPTION = {"grouped": "keep_numbers", "beside-han": "keep_numbers", "held": "hold_numbers"}
ARMS = {"keep_numbers": ("as_written", "plain_digits"), "hold_numbers": ("free", "held")}


def numbers_of(source: str, to: str, select: str) -> list[str]:
    """The numbers of ``source`` (translated into ``to``) that ``select`` counts: its grouped
    ones, those a translation keeps as digits (``held``), or every number of its plain digits
    but a month's."""
    if select == "grouped":
        return grouped_numbers(source)
    if select == "held":
        return numbers_to_hold(set_apart(ungroup(source)), "zh" if to == "en" else "en")
    return NUMBER.findall(MONTH.sub("", ungroup(source)))


def with_numbers(path: Path, to: str, select: str) -> list[tuple[str, str]]:
    """(source, reference) of the lines of an English<TAB>Chinese<TAB>… file whose source (the
    side not in ``to``) holds a number that ``select`` takes."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    pairs = [(en, zh) if to == "zh" else (zh, en) for en, zh, *_ in rows]
    if select == "beside-han":
        return [(source, ref) for source, ref in pairs if BESIDE_HAN.search(source)]
    return [(source, ref) for source, ref in pairs if numbers_of(source, to, select)]


def kept(source: str, translation: str, to: str, select: str) -> int:
    """How many of ``source``'s numbers ``translation`` holds: as written or without commas, or
    (``held``) as whole numbers."""
    plain = translation.replace(",", "")
    numbers = numbers_of(source, to, select)
    if select == "held":
        return sum(whole(n, plain) for n in numbers)
    return sum(n in translation or n.replace(",", "") in plain for n in numbers)


def score_both(translator: Translator, pairs: list[tuple[str, str]], to: str, select: str) -> dict:
    """The lines' scores with the option ``select`` weighs off and on, and the numbers each
    keeps."""
    sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    total = sum(len(numbers_of(s, to, select)) for s in sources)
    result: dict = {"lines": len(pairs), "numbers": total}
    if not pairs:  # newstest2020's Chinese writes no grouped number; English no Han
        return result
    option = OPTION[select]
    fixed = {} if option == "hold_numbers" else {"hold_numbers": False}
    for key, on in zip(ARMS[option], (False, True), strict=True):
        start = time.perf_counter()
        hypotheses = translator(sources, to=to, **{option: on}, **fixed)
        seconds = round(time.perf_counter() - start, 2)
        numbers = sum(kept(s, h, to, select) for s, h in zip(sources, hypotheses, strict=True))
        result[key] = scored(hypotheses, refs, to) | {"numbers_kept": numbers, "seconds": seconds}
    return result


def main() -> None:
    parser = off_and_on_parser(__doc__.splitlines()[0])
    parser.add_argument("--select", choices=list(OPTION), default="grouped")
    parser.add_argument("--lines", type=int, default=0, help="first N lines a set; 0 = all")
    args = parser.parse_args()
    translator = off_and_on_translator(args)
    results = {}
    for name, (file, to) in SETS.items():
        path = Path(args.sources) / "wmt-news" / file
        pairs = with_numbers(path, to, args.select)[: args.lines or None] if path.is_file() else []
        found = score_both(translator, pairs, to, args.select) if path.is_file() else "missing"
        results[name] = found
        print(name, found, flush=True)
    emit_off_and_on("numerals", args, results, select=args.select)


if __name__ == "__main__":
    main()

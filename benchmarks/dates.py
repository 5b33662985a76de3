"""Chinese dates into English, translated with and without holding them as English writes them
(``hold_dates``).

Takes the Chinese lines of the WMT zh→en sets that ``fanyi data wmt-news`` wrote whose source
holds a date with a day or a year (``dates.english_dates``: 8月11日, 2014年8月, 2023年5月12日):
newstest2017 (its dev split, ``dev.tsv``: choose on this one), newstest2019, 2020 and 2021
(test). Scores each set's lines (the first ``--lines``, all by default) with ``hold_dates`` off
and on: BLEU, chrF, length ratio (sacreBLEU), the dates the translation names right (month and
day, or month and year, in either order; and the year where the source has one) and the seconds
it took. Ends with one JSON line.

    python benchmarks/dates.py [-m MODEL] [--sources data/sources] [--threads 2] [--lines N]
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.dates import english_dates
from fanyi.decode.translator import Translator
from fanyi.numerals import set_apart, ungroup

SETS = {
    "newstest2017 (dev) zh→en": "dev.tsv",
    **{f"newstest{y} zh→en": f"newstest{y}.zh-en.tsv" for y in (2019, 2020, 2021)},
}


def dates_of(source: str) -> list[str]:
    """The English phrases of the dates of a Chinese ``source``, read as the model reads it."""
    return [english for _, english in english_dates(set_apart(ungroup(source)))]


def named(date: str, translation: str) -> bool:
    """Whether ``translation`` names ``date`` ("May 12, 2023", "May 12", "May 2023") right: its
    month with its day or year in either order ("12 May"), and the year where it has one."""
    month, *rest = date.replace(",", "").split()
    if len(rest) == 2:  # month, day and year
        return named(f"{month} {rest[0]}", translation) and rest[1] in translation
    number = rest[0]
    forms = [f"{month} {number}", f"{number} {month}", f"{month}, {number}", f"{month} of {number}"]
    return any(re.search(rf"\b{form}\b", translation) for form in forms)


def with_dates(path: Path) -> list[tuple[str, str]]:
    """(Chinese, English) of the lines of an English<TAB>Chinese<TAB>… file whose Chinese holds
    a date with a day or a year."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    return [(zh, en) for en, zh, *_ in rows if dates_of(zh)]


def score_both(translator: Translator, pairs: list[tuple[str, str]]) -> dict:
    """The lines' scores with ``hold_dates`` off and on, and the dates each names right."""
    sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    result: dict = {"lines": len(pairs), "dates": sum(len(dates_of(s)) for s in sources)}
    result["reference_names"] = sum(
        named(d, r) for s, r in zip(sources, refs, strict=True) for d in dates_of(s)
    )
    for key, on in (("free", False), ("held", True)):
        start = time.perf_counter()
        hypotheses = translator(sources, to="en", hold_dates=on)
        seconds = round(time.perf_counter() - start, 2)
        right = sum(
            named(d, h) for s, h in zip(sources, hypotheses, strict=True) for d in dates_of(s)
        )
        result[key] = scored(hypotheses, refs, "en") | {"dates_named": right, "seconds": seconds}
    return result


def main() -> None:
    parser = off_and_on_parser(__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=0, help="first N lines a set; 0 = all")
    args = parser.parse_args()
    translator = off_and_on_translator(args)
    results = {}
    for name, file in SETS.items():
        path = Path(args.sources) / "wmt-news" / file
        if not path.is_file():
            results[name] = "missing"
            continue
        results[name] = score_both(translator, with_dates(path)[: args.lines or None])
        print(name, results[name], flush=True)
    emit_off_and_on("dates", args, results, lines=args.lines)


if __name__ == "__main__":
    main()

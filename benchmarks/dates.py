"""Dates between Chinese and English, translated with and without holding them as the target
writes them (``hold_dates``).

Takes the lines of the WMT sets that ``fanyi data wmt-news`` wrote whose source holds a date
with a day or a year (``dates.dates_to_hold``: 8月11日, 2014年8月, 2023年5月12日; "August 11",
"11 August 2023", "August 2014"): newstest2017 (its dev split, ``dev.tsv``, both ways: choose
on this one), newstest2019 and 2020 both ways and 2021 zh→en (test). Scores each set's lines (the
first ``--lines``, all by default) with ``hold_dates`` off and on: BLEU, chrF, length ratio
(sacreBLEU), the dates the translation names right (into English its month with its day or
year, in either order, and the year where the source has one; into Chinese the date in digits,
spaces aside) and the seconds it took. Ends with one JSON line.

    python benchmarks/dates.py [-m MODEL] [--sources data/sources] [--threads 2] [--lines N]
                               [--to en|zh]
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.dates import dates_to_hold
from fanyi.text.numerals import set_apart, ungroup
from fanyi.translate.translator import Translator

SETS = {  # (file, direction); dev.tsv holds newstest2017 English<TAB>Chinese, read both ways
    "newstest2017 (dev) zh→en": ("dev.tsv", "en"),
    "newstest2017 (dev) en→zh": ("dev.tsv", "zh"),
    **{f"newstest{y} zh→en": (f"newstest{y}.zh-en.tsv", "en") for y in (2019, 2020, 2021)},
    **{f"newstest{y} en→zh": (f"newstest{y}.en-zh.tsv", "zh") for y in (2019, 2020)},
}
SPACED = re.compile(r"(?<=[\d年月日])\s+(?=[\d年月日])")


def dates_of(source: str, to: str) -> list[str]:
    """The target phrases of the dates of ``source`` (into ``to``), read as the model reads it."""
    read = set_apart(ungroup(source)) if to == "en" else ungroup(source)
    return [phrase for _, phrase in dates_to_hold(read, "zh" if to == "en" else "en", to)]


def named(date: str, translation: str, to: str) -> bool:
    """Whether ``translation`` names ``date`` right: into Chinese as written ("8月11日", spaces
    aside); into English ("May 12, 2023", "May 12", "May 2023") its month with its day or year
    in either order ("12 May"), and the year where it has one."""
    if to == "zh":
        return date in SPACED.sub("", translation)
    month, *rest = date.replace(",", "").split()
    if len(rest) == 2:  # month, day and year
        return named(f"{month} {rest[0]}", translation, to) and rest[1] in translation
    number = rest[0]
    forms = [f"{month} {number}", f"{number} {month}", f"{month}, {number}", f"{month} of {number}"]
    return any(re.search(rf"\b{form}\b", translation) for form in forms)


def with_dates(path: Path, to: str) -> list[tuple[str, str]]:
    """(source, reference) of the lines of an English<TAB>Chinese<TAB>… file whose source (the
    side not in ``to``) holds a date with a day or a year."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    pairs = [(en, zh) if to == "zh" else (zh, en) for en, zh, *_ in rows]
    return [(source, ref) for source, ref in pairs if dates_of(source, to)]


def names(sources: list[str], outputs: list[str], to: str) -> int:
    """How many of the sources' dates the outputs name right."""
    pairs = zip(sources, outputs, strict=True)
    return sum(named(d, out, to) for source, out in pairs for d in dates_of(source, to))


def score_both(translator: Translator, pairs: list[tuple[str, str]], to: str) -> dict:
    """The lines' scores with ``hold_dates`` off and on, and the dates each names right."""
    sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    result: dict = {"lines": len(pairs), "dates": sum(len(dates_of(s, to)) for s in sources)}
    result["reference_names"] = names(sources, refs, to)
    for key, on in (("free", False), ("held", True)):
        start = time.perf_counter()
        hypotheses = translator(sources, to=to, hold_dates=on)
        seconds = round(time.perf_counter() - start, 2)
        named_right = {"dates_named": names(sources, hypotheses, to), "seconds": seconds}
        result[key] = scored(hypotheses, refs, to) | named_right
    return result


def main() -> None:
    parser = off_and_on_parser(__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=0, help="first N lines a set; 0 = all")
    parser.add_argument("--to", choices=["en", "zh"], help="one direction (default: both)")
    args = parser.parse_args()
    translator = off_and_on_translator(args)
    results = {}
    for name, (file, to) in SETS.items():
        path = Path(args.sources) / "wmt-news" / file
        if args.to not in (None, to):
            continue
        if not path.is_file():
            results[name] = "missing"
            continue
        results[name] = score_both(translator, with_dates(path, to)[: args.lines or None], to)
        print(name, results[name], flush=True)
    emit_off_and_on("dates", args, results, lines=args.lines)


if __name__ == "__main__":
    main()

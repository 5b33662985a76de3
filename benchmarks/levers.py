"""Text levers off and on: what reading a feature of the text apart (or holding a translation to
it) gives on the held-out lines that hold it.

Each lever names the option it switches, the held-out sets it reads (the files ``fanyi data``
wrote; a dev split to choose on, test splits to report), the lines of each it takes (those whose
source holds its feature) and what it counts. Every set's lines are translated each way the
lever lists and scored: BLEU, chrF, length ratio (sacreBLEU; tok:zh into Chinese), the lever's
counts and the seconds each way took. A set whose file is missing is reported as "missing".
Ends with one JSON line.

    python benchmarks/levers.py --lever NAME [-m MODEL] [--sources data/sources] [--threads 2]
                                [--dtype fp32] [--lines N] [--to en|zh]

The levers (``--help`` lists them too), on WMT newstest2017 (its dev split: choose on this
one), 2019, 2020 (2021) unless named:

- ``numbers``, ``numbers-beside-han``: ``keep_numbers`` (``hold_numbers`` off) on numbers in
  groups of three digits ("1,400,000"), or on Chinese digits against a Han character
  ("2024年3月1日"); counts the numbers kept (a month's aside).
- ``numbers-held``: ``hold_numbers`` on numbers a translation keeps as digits; counts those kept
  as whole numbers.
- ``dates``: ``hold_dates`` on dates with a day or a year; counts the dates named right.
- ``links``: ``keep_links`` on addresses the reference copies (python-docs and django-docs dev
  and test, WMT and TICO-19 test sets); counts the links copied.
- ``code``: code a python-docs or django-docs reference copies, put in backticks both sides;
  as written (``keep_code`` off), bare (``hold_code`` off), held; counts spans given back.
- ``list-markers``: the first ``--lines`` (100) pairs numbered as a list, and the real list
  items; the marker as a sentence of its own, with the item (``keep_list_markers`` off), apart.
- ``headlines``: ``recase_headlines`` on English in Title Case or in capitals, into Chinese;
  counts the English words left.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from common import (
    emit_off_and_on,
    off_and_on_arguments,
    off_and_on_translator,
    read_lines,
    scored,
)
from fanyi.text.code_spans import code_spans
from fanyi.text.dates import dates_to_hold
from fanyi.text.lang import join_sentences
from fanyi.text.links import links
from fanyi.text.list_markers import list_marker
from fanyi.text.numerals import (
    BESIDE_HAN,
    grouped_numbers,
    numbers_to_hold,
    set_apart,
    ungroup,
    whole,
)
from fanyi.text.recase import recasable
from fanyi.translate.translator import Translator

Pairs = list[tuple[str, str]]  # (source, reference)
Way = dict[str, bool] | Callable[[Translator, list[str], str], list[str]]
Counts = Callable[[str, str, str], dict[str, int]]  # (source, text, to) → counts
Read = Callable[[Path, str, int], Pairs | dict[str, Pairs]]  # (file, to, --lines) → lines


def oriented(path: Path, to: str) -> Pairs:
    """(source, reference) into ``to`` of each line of an English<TAB>Chinese<TAB>… file."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    return [(en, zh) if to == "zh" else (zh, en) for en, zh, *_ in rows]


def arrow(to: str) -> str:
    return "en→zh" if to == "zh" else "zh→en"


def wmt(en_zh: tuple[int, ...], zh_en: tuple[int, ...]) -> dict[str, tuple[str, str]]:
    """WMT sets by name: newstest2017 (the dev split ``dev.tsv``) both ways, and the years of
    each direction's test sets."""
    sets = {f"newstest2017 (dev) {arrow(to)}": ("wmt-news/dev.tsv", to) for to in ("zh", "en")}
    sets |= {f"newstest{y} en→zh": (f"wmt-news/newstest{y}.en-zh.tsv", "zh") for y in en_zh}
    return sets | {f"newstest{y} zh→en": (f"wmt-news/newstest{y}.zh-en.tsv", "en") for y in zh_en}


def first(pairs: Callable[[Path, str], Pairs]) -> Read:
    """A reader of the lines ``pairs`` takes from a file, the first ``--lines`` of them."""
    return lambda path, to, lines: pairs(path, to)[: lines or None]


# numbers ----------------------------------------------------------------------------------------
NUMBER, MONTH = re.compile(r"\d+(?:\.\d+)?"), re.compile(r"\d+(?=\s*月)")


def numbers_of(select: str, source: str, to: str) -> list[str]:
    """The numbers of ``source`` that ``select`` counts: its grouped ones, those a translation
    keeps as digits (``held``), or every number of its plain digits but a month's."""
    if select == "grouped":
        return grouped_numbers(source)
    if select == "held":
        return numbers_to_hold(set_apart(ungroup(source)), "zh" if to == "en" else "en")
    return NUMBER.findall(MONTH.sub("", ungroup(source)))


def with_numbers(select: str) -> Callable[[Path, str], Pairs]:
    def read(path: Path, to: str) -> Pairs:
        if select == "beside-han":
            return [(s, r) for s, r in oriented(path, to) if BESIDE_HAN.search(s)]
        return [(s, r) for s, r in oriented(path, to) if numbers_of(select, s, to)]

    return read


def numbers_kept(select: str) -> Counts:
    """How many of the source's numbers a text holds: as written or without commas, or
    (``held``) as whole numbers."""

    def count(source: str, text: str, to: str) -> dict[str, int]:
        plain, numbers = text.replace(",", ""), numbers_of(select, source, to)
        if select == "held":
            return {"numbers_kept": sum(whole(n, plain) for n in numbers)}
        kept = sum(n in text or n.replace(",", "") in plain for n in numbers)
        return {"numbers_kept": kept}

    return count


KEEP_NUMBERS = {
    "as_written": {"keep_numbers": False, "hold_numbers": False},
    "plain_digits": {"keep_numbers": True, "hold_numbers": False},
}


# dates ------------------------------------------------------------------------------------------
SPACED = re.compile(r"(?<=[\d年月日])\s+(?=[\d年月日])")


def dates_of(source: str, to: str) -> list[str]:
    """The target phrases of the dates of ``source`` (into ``to``), read as the model reads it."""
    read = set_apart(ungroup(source)) if to == "en" else ungroup(source)
    return [phrase for _, phrase in dates_to_hold(read, "zh" if to == "en" else "en", to)]


def named(date: str, text: str, to: str) -> bool:
    """Whether ``text`` names ``date`` right: into Chinese as written ("8月11日", spaces aside);
    into English ("May 12, 2023", "May 12", "May 2023") its month with its day or year in either
    order ("12 May"), and the year where it has one."""
    if to == "zh":
        return date in SPACED.sub("", text)
    month, *rest = date.replace(",", "").split()
    if len(rest) == 2:  # month, day and year
        return named(f"{month} {rest[0]}", text, to) and rest[1] in text
    number = rest[0]
    forms = [f"{month} {number}", f"{number} {month}", f"{month}, {number}", f"{month} of {number}"]
    return any(re.search(rf"\b{form}\b", text) for form in forms)


def dates_named(source: str, text: str, to: str) -> int:
    return sum(named(date, text, to) for date in dates_of(source, to))


# code -------------------------------------------------------------------------------------------
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
CODE = re.compile(  # a.b(.c…)(()), f(), snake_case: code a reference copies as written
    rf"(?<![\w`])(?:{NAME}(?:\.{NAME})+(?:\(\))?|{NAME}\(\)|[a-z]+_[a-z0-9_]+)(?![\w`])"
)


def in_backticks(text: str, code: list[str]) -> str:
    """``text`` with every whole occurrence of each piece of ``code`` in backticks."""
    for piece in code:
        text = re.sub(rf"(?<![\w`]){re.escape(piece)}(?![\w`])", f"`{piece}`", text)
    return text


def marked(path: Path, to: str) -> Pairs:
    """The lines whose Chinese copies code from the English, that code in backticks both sides."""
    pairs = []
    for en, zh in oriented(path, "zh"):
        code = sorted({c for c in CODE.findall(en) if c in zh}, key=len, reverse=True)
        if code:
            pairs.append((in_backticks(en, code), in_backticks(zh, code)))
    return pairs if to == "zh" else [(zh, en) for en, zh in pairs]


def code_given_back(source: str, text: str, to: str) -> dict[str, int]:
    back = sum(text.count(span) > 0 for span in code_spans(source))
    return {"spans_given_back": back, "lines_unpaired": text.count("`") % 2}


def copies_a_link(source: str, reference: str) -> bool:
    return any(link in reference for link in links(source))


# list markers -----------------------------------------------------------------------------------
def numbered_and_real(path: Path, to: str, lines: int) -> dict[str, Pairs]:
    """The first ``lines`` pairs numbered as a list on both sides, and the real list items."""
    rows = oriented(path, to)
    numbered = [(f"{n}. {s}", f"{n}. {r}") for n, (s, r) in enumerate(rows[:lines], 1)]
    return {"numbered": numbered, "real": [(s, r) for s, r in rows if list_marker(s)[0].marker]}


def as_its_own_sentence(translator: Translator, sources: list[str], to: str) -> list[str]:
    """Each item's marker and the item translated as two sentences and joined."""
    cut = [list_marker(s) for s in sources]
    markers = translator([m.marker for m, _ in cut], to=to, keep_list_markers=False)
    items = translator([item for _, item in cut], to=to)
    return [join_sentences([m, i], to) for m, i in zip(markers, items, strict=True)]


# the levers -------------------------------------------------------------------------------------
def nothing(source: str, text: str, to: str) -> dict[str, int]:
    return {}


@dataclass(frozen=True)
class Lever:
    """What a lever switches (``ways``: the options of each way, or a function that translates),
    the sets it reads (name → file under ``--sources``, target), the lines of a file it takes (or
    parts of them, each scored apart), what it counts in each way's output (``counts``) and in
    each set (``totals``, from the source and its reference)."""

    help: str
    ways: dict[str, Way]
    sets: dict[str, tuple[str, str]]
    read: Read
    counts: Counts = nothing
    totals: Counts = nothing
    lines: int = 0  # the default of --lines: 0, every line
    settings: dict = field(default_factory=dict)  # recorded in the JSON line


def numbers(help: str, select: str, ways: dict[str, Way]) -> Lever:
    """A lever on the numbers ``select`` takes, on the WMT sets both ways."""
    return Lever(
        help,
        ways,
        wmt(en_zh=(2019, 2020), zh_en=(2019, 2020)),
        first(with_numbers(select)),
        numbers_kept(select),
        lambda s, r, to: {"numbers": len(numbers_of(select, s, to))},
        settings={"select": select},
    )


LEVERS = {
    "numbers": numbers("keep_numbers on grouped numbers", "grouped", KEEP_NUMBERS),
    "numbers-beside-han": numbers(
        "keep_numbers on digits against Han characters", "beside-han", KEEP_NUMBERS
    ),
    "numbers-held": numbers(
        "hold_numbers on numbers kept as digits",
        "held",
        {"free": {"hold_numbers": False}, "held": {"hold_numbers": True}},
    ),
    "dates": Lever(
        "hold_dates on dates with a day or a year",
        {"free": {"hold_dates": False}, "held": {"hold_dates": True}},
        wmt(en_zh=(2019, 2020), zh_en=(2019, 2020, 2021)),
        first(lambda path, to: [(s, r) for s, r in oriented(path, to) if dates_of(s, to)]),
        lambda s, t, to: {"dates_named": dates_named(s, t, to)},
        lambda s, r, to: {"dates": len(dates_of(s, to)), "reference_names": dates_named(s, r, to)},
    ),
    "links": Lever(
        "keep_links on addresses the reference copies",
        {"off": {"keep_links": False}, "on": {"keep_links": True}},
        {
            **{
                f"{split} {name}/{split}.tsv {arrow(to)}": (f"{name}/{split}.tsv", to)
                for split in ("dev", "test")
                for name in ("python-docs", "django-docs")
                for to in ("zh", "en")
            },
            **{
                f"test {file} {arrow(to)}": (file, to)
                for file, to in (
                    ("wider-tests/tico19-test.tsv", "zh"),
                    ("wider-tests/generaltest2022.zh-en.tsv", "en"),
                    ("wmt23/generaltest2023.en-zh.tsv", "zh"),
                    ("wmt-news/newstest2020.zh-en.tsv", "en"),
                    ("wmt-news/newstest2021.zh-en.tsv", "en"),
                )
            },
        },
        first(lambda path, to: [(s, r) for s, r in oriented(path, to) if copies_a_link(s, r)]),
        lambda s, t, to: {"links_copied": sum(k in t for k in links(s))},
        lambda s, r, to: {"links": sum(k in r for k in links(s))},
    ),
    "code": Lever(
        "keep_code and hold_code on inline code in backticks",
        {
            "as_written": {"keep_code": False, "hold_code": False},
            "bare": {"keep_code": True, "hold_code": False},
            "held": {"keep_code": True, "hold_code": True},
        },
        {
            f"{name}/{split}.tsv {arrow(to)}": (f"{name}/{split}.tsv", to)
            for name in ("python-docs", "django-docs")
            for split in ("dev", "test")
            for to in ("zh", "en")
        },
        first(marked),
        code_given_back,
        lambda s, r, to: {"spans": len(code_spans(s))},
    ),
    "list-markers": Lever(
        "keep_list_markers on list items",
        {
            "own_sentence": as_its_own_sentence,
            "with_item": {"keep_list_markers": False},
            "apart": {"keep_list_markers": True},
        },
        wmt(en_zh=(2020,), zh_en=(2019, 2020)),
        numbered_and_real,
        lines=100,
    ),
    "headlines": Lever(
        "recase_headlines on English in Title Case or in capitals",
        {"as_written": {"recase_headlines": False}, "sentence_case": {"recase_headlines": True}},
        {
            "newstest2017 (dev)": ("wmt-news/dev.tsv", "zh"),
            **{f"newstest{y}": (f"wmt-news/newstest{y}.en-zh.tsv", "zh") for y in (2019, 2020)},
        },
        first(lambda path, to: [(s, r) for s, r in oriented(path, to) if recasable(s)]),
        lambda s, t, to: {"english_words": len(re.findall(r"[A-Za-z]+", t))},
    ),
}


def summed(counts: Counts, sources: list[str], texts: list[str], to: str) -> dict[str, int]:
    total = {key: 0 for key in counts("", "", to)}  # every key, though no line has one
    for source, text in zip(sources, texts, strict=True):
        for key, n in counts(source, text, to).items():
            total[key] = total.get(key, 0) + n
    return total


def each_way(lever: Lever, translator: Translator, pairs: Pairs, to: str) -> dict:
    """The pairs translated each way of ``lever``: scores, counts and seconds."""
    sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    result: dict = {"lines": len(pairs), **summed(lever.totals, sources, refs, to)}
    if not pairs:
        return result
    for name, way in lever.ways.items():
        start = time.perf_counter()
        out = way(translator, sources, to) if callable(way) else translator(sources, to=to, **way)
        seconds = round(time.perf_counter() - start, 2)
        result[name] = scored(out, refs, to) | summed(lever.counts, sources, out, to)
        result[name]["seconds"] = seconds
    return result


def one_set(lever: Lever, translator: Translator, path: Path, to: str, lines: int) -> dict:
    """One set's figures: of its lines, or of each part of them that is not empty."""
    read = lever.read(path, to, lines)
    if isinstance(read, dict):
        return {part: each_way(lever, translator, p, to) for part, p in read.items() if p}
    return each_way(lever, translator, read, to)


def parse_args() -> argparse.Namespace:
    parser = off_and_on_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "levers:\n" + "\n".join(f"  {n:<20}{v.help}" for n, v in LEVERS.items())
    parser.add_argument("--lever", required=True, choices=list(LEVERS), help="what to switch")
    parser.add_argument("--lines", type=int, help="first N lines a set (0: all; list-markers 100)")
    parser.add_argument("--to", choices=["en", "zh"], help="one direction (default: both)")
    args = parser.parse_args()
    if args.lines is None:
        args.lines = LEVERS[args.lever].lines
    return args


def main() -> None:
    args = parse_args()
    lever = LEVERS[args.lever]
    translator = off_and_on_translator(args)
    results: dict = {}
    for name, (file, to) in lever.sets.items():
        if args.to not in (None, to):
            continue
        path = Path(args.sources) / file
        found = one_set(lever, translator, path, to, args.lines) if path.is_file() else None
        results[name] = "missing" if found is None else found
        print(name, results[name], flush=True)
    settings = {"lever": args.lever, "lines": args.lines, **lever.settings}
    emit_off_and_on("levers", args, results, **settings)


if __name__ == "__main__":
    main()

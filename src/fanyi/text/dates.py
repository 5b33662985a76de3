"""Dates as the other language writes them: 2023年5月12日 "May 12, 2023", 8月11日 "August 11",
2014年8月 "August 2014", and back. What a translation between Chinese and English is held to
(``hold_dates``), in place of the date's numbers.

The model names a month wrongly where a number would do: 8月11日 came out "November 11" (and
8月12日 "December 12"), 2023年5月12日 "May 2023" (the day lost) or, held to its numbers alone,
"12, 2023" (the month lost). A month's name is a fact of the source, not a choice of the model,
so a Chinese date is held to as the phrase English writes for it (month, day, year: the order
the model itself writes, "March 1, 2024"). A month alone (5月) is left to the model. Into
Chinese it wrote "August 11" as 美国月11日 or 3月7日 for "August 7": an English date with a day
or a year is held to as Chinese writes it in digits (8月11日, 2023年8月11日, 2014年8月).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .transform import Context, Held, Option, Transform

MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
# as the model reads it: digits set apart from Han characters (numerals.set_apart); 号 as 日
CHINESE_DATE = re.compile(
    r"(?<![\d.])(?:(?P<year>\d{4})\s*年\s*)?(?P<month>\d{1,2})\s*月"
    r"(?:\s*(?P<day>\d{1,2})\s*[日号])?"
)


_MONTH = "|".join(MONTHS)
_DAY = r"(?P<{}>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"
# month day[, year], day month[ year], month year: names capitalised ("may" is a verb)
ENGLISH_DATE = re.compile(
    rf"\b(?:(?P<month>{_MONTH})\s+(?:{_DAY.format('day')}(?:,?\s+(?P<year>\d{{4}}))?"
    r"|(?P<year_only>\d{4}))"
    rf"|{_DAY.format('day_first')}\s+(?P<month_after>{_MONTH})(?:,?\s+(?P<year_after>\d{{4}}))?)"
    r"\b(?![\d,]*\d)"
)


Date = tuple[int, int | None, str | None]  # month (1-12 when valid), day, year


def dates_to_hold(text: str, source: str, target: str) -> list[tuple[str, str]]:
    """The dates of ``text`` (in ``source``, as the model reads it) a translation into
    ``target`` is held to: (what the source writes, the phrase), for Chinese⇄English only."""
    if (source, target) == ("zh", "en"):
        return english_dates(text)
    if (source, target) == ("en", "zh"):
        return chinese_dates(text)
    return []


def chinese_dates(text: str) -> list[tuple[str, str]]:
    """Each date of the English ``text`` with a day or a year, as (what the source writes, the
    Chinese phrase for it, in digits), in order."""
    return _dates(ENGLISH_DATE, text, _read_english, _in_chinese)


def english_dates(text: str) -> list[tuple[str, str]]:
    """Each date of the Chinese ``text`` with a day or a year, as (what the source writes, the
    English phrase for it), in order: a month of 1-12, a day of 1-31."""
    return _dates(CHINESE_DATE, text, _read_chinese, _in_english)


def _dates(
    pattern: re.Pattern[str],
    text: str,
    read: Callable[[re.Match[str]], Date],
    write: Callable[[int, int | None, str | None], str],
) -> list[tuple[str, str]]:
    """The matches of ``pattern`` in ``text`` that ``read`` as a valid date with a day or a
    year, each with the phrase ``write`` gives it."""
    found = []
    for match in pattern.finditer(text):
        month, day, year = read(match)
        if 1 <= month <= 12 and (day or year) and (day is None or 1 <= day <= 31):
            found.append((match.group(), write(month, day, year)))
    return found


def _read_chinese(match: re.Match[str]) -> Date:
    day = match["day"]
    return int(match["month"]), int(day) if day else None, match["year"]


def _read_english(match: re.Match[str]) -> Date:
    day = match["day"] or match["day_first"]
    year = match["year"] or match["year_after"] or match["year_only"]
    return MONTHS.index(match["month"] or match["month_after"]) + 1, int(day) if day else None, year


def _in_english(month: int, day: int | None, year: str | None) -> str:
    name = MONTHS[month - 1]
    if day is None:
        return f"{name} {year}"
    return f"{name} {day}, {year}" if year else f"{name} {day}"


def _in_chinese(month: int, day: int | None, year: str | None) -> str:
    return (f"{year}年" if year else "") + f"{month}月" + (f"{day}日" if day else "")


class Dates(Transform):
    """``hold_dates``: between Chinese and English, a date with a day or a year held to as the
    target writes it (8月11日 "August 11")."""

    name = "dates"
    options = (
        Option("hold_dates", True, "a date held as the target writes it (8月11日 ⇄ August 11)"),
    )

    def held(self, sentence: str, memo: None, context: Context) -> Held:
        if not context.options.hold_dates:
            return []
        return dates_to_hold(sentence, context.source, context.to)

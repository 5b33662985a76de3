"""Chinese dates as English writes them: 2023年5月12日 "May 12, 2023", 8月11日 "August 11",
2014年8月 "August 2014". What a translation into English of a Chinese sentence is held to
(``hold_dates``), in place of the date's numbers.

The model names a month wrongly where a number would do: 8月11日 came out "November 11" (and
8月12日 "December 12"), 2023年5月12日 "May 2023" (the day lost) or, held to its numbers alone,
"12, 2023" (the month lost). A month's name is a fact of the source, not a choice of the model,
so a Chinese date is held to as the phrase English writes for it (month, day, year: the order
the model itself writes, "March 1, 2024"). A month alone (5月) is left to the model.
"""

from __future__ import annotations

import re

MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
# as the model reads it: digits set apart from Han characters (numerals.set_apart); 号 as 日
CHINESE_DATE = re.compile(
    r"(?<![\d.])(?:(?P<year>\d{4})\s*年\s*)?(?P<month>\d{1,2})\s*月"
    r"(?:\s*(?P<day>\d{1,2})\s*[日号])?"
)


def english_dates(text: str) -> list[tuple[str, str]]:
    """Each date of the Chinese ``text`` with a day or a year, as (what the source writes, the
    English phrase for it), in order: a month of 1-12, a day of 1-31."""
    found = []
    for match in CHINESE_DATE.finditer(text):
        year, month, day = match["year"], int(match["month"]), match["day"]
        if not 1 <= month <= 12 or not (year or day) or (day and not 1 <= int(day) <= 31):
            continue
        name = MONTHS[month - 1]
        if day:
            english = f"{name} {int(day)}, {year}" if year else f"{name} {int(day)}"
        else:
            english = f"{name} {year}"
        found.append((match.group(), english))
    return found

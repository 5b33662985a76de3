"""Numbers as the model copies them: read as plain digits set apart from Han characters,
written back as the source wrote them.

A subword model reads "1,400,000" as digits between commas, and into Chinese it then may write
a list ("1、299.99") or the wrong magnitude (十四万 for 1,400,000), where "1400000" it copies.
So a translator hands the model the plain digits (``ungroup``) and, where the translation
carries them unchanged, puts the source's separators back (``regroup``); a number the
translation writes another way (140万, "1.4 million") stays as the model wrote it. In Chinese,
digits written against Han characters ("2024年3月1日") are pieced together with them less
well than digits set apart by spaces, as much of the news text writes them ("2024 年 3 月 1
日"): into English the first came out "March 1, 24", the second "March 1, 2024" (``set_apart``).
"""

from __future__ import annotations

import re

from .lang import HAN

# one to three digits, then groups of three after commas, then an optional decimal part; not
# inside a longer run of digits, commas and points ("1,2,3", "1,000,00" and "3.1,000" are not)
GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!,?\d)")


# between a digit and a Han character that touch
BESIDE_HAN = re.compile(f"(?<=[{HAN}])(?=\\d)|(?<=\\d)(?=[{HAN}])")


def grouped_numbers(text: str) -> list[str]:
    """The numbers of ``text`` written in groups of three digits, in order."""
    return GROUPED.findall(text)


def ungroup(text: str) -> str:
    """``text`` with each number written in groups of three digits as plain digits."""
    return GROUPED.sub(lambda number: number.group().replace(",", ""), text)


def regroup(translation: str, numbers: list[str]) -> str:
    """``translation`` with each of the source's grouped ``numbers`` written back as the source
    wrote it, where the translation holds its plain digits as a whole number (each number once,
    in order)."""
    for number in numbers:
        plain = re.escape(number.replace(",", ""))
        translation = re.sub(rf"(?<![\d.,]){plain}(?!\d)", number, translation, count=1)
    return translation


def set_apart(text: str) -> str:
    """``text`` with a space between each digit and a Han character that touch."""
    return BESIDE_HAN.sub(" ", text)

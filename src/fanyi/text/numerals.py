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
And where a translation leaves out a number of its source ("May 2023" for 2023年5月12日, 1299元 for
$1,299.99), the translator holds it to the numbers a translation keeps as digits
(``numbers_to_hold``; ``decode/constraints.py``).
"""

from __future__ import annotations

import re

from .lang import HAN
from .transform import ALTERNATIVES, Context, Held, Option, Transform

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


NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.]*\d)")
# numbers a translation may write another way: before a unit of magnitude (500万 is "5 million",
# "5 million" 500万), a Chinese month (English names it), a century or a decade
WRITTEN_OTHERWISE = {  # a century and a decade: 20 世纪 70 年代 is "the 1970s"
    "zh": re.compile(r"\d+(?:\.\d+)?(?=\s*(?:月|十|百|千|万|亿|多|余|世纪|年代))"),
    "en": re.compile(
        r"\d+(?:\.\d+)?(?=\s*(?:hundred|thousand|million|billion|trillion|m|bn)\b)", re.I
    ),
}


# the whole numbers that English may write as a word ("6 英寸" is "six inches"), by their digits
_WORDS = "zero one two three four five six seven eight nine ten eleven twelve"
NUMBER_WORDS = {str(n): word for n, word in enumerate(_WORDS.split())}


def as_held(number: str, to: str) -> str:
    """The phrase a translation into ``to`` holds for ``number``: its digits, and into English
    for a whole number up to twelve also its word ("6": "6", "six" or "Six")."""
    word = NUMBER_WORDS.get(number) if to == "en" else None
    return ALTERNATIVES.join((number, word, word.capitalize())) if word else number


def numbers_to_hold(text: str, lang: str) -> list[str]:
    """The numbers of ``text`` (in ``lang``, as the model reads it: plain digits) that a
    translation writes as the same digits, each once: not those before a unit of magnitude or a
    Chinese month."""
    otherwise = WRITTEN_OTHERWISE.get(lang)
    kept = otherwise.sub(" ", text) if otherwise else text
    return list(dict.fromkeys(NUMBER.findall(kept)))


def set_apart(text: str) -> str:
    """``text`` with a space between each digit and a Han character that touch."""
    return BESIDE_HAN.sub(" ", text)


# Latin letters, accented ones too (Latin-1 to Latin Extended-B, less × and ÷)
LATIN_LETTER = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
_LATIN = re.compile(f"[{LATIN_LETTER}]")


def whole(phrase: str, text: str) -> bool:
    """Whether ``text`` holds ``phrase``: a number only as a whole number ("12" not in 2012),
    Latin words only as whole words ("Li Wei" not in "Li Weiwei"; beside a Han character, a
    digit or punctuation they are whole)."""
    start, end = "", ""
    if phrase[:1].isdigit():
        start = r"(?<![\d.])"
    elif _LATIN.match(phrase[:1]):
        start = f"(?<![{LATIN_LETTER}])"
    if phrase[-1:].isdigit():
        end = r"(?![\d.]*\d)"
    elif _LATIN.match(phrase[-1:]):
        end = f"(?![{LATIN_LETTER}])"
    return re.search(start + re.escape(phrase) + end, text) is not None


class Numbers(Transform):
    """``keep_numbers``: grouped numbers read as plain digits set apart from Han characters,
    written back as the source grouped them; ``hold_numbers``: a translation that misses a
    number of its sentence is searched again, held to it."""

    name = "numbers"
    options = (
        Option(
            "keep_numbers", True, "1,400,000 read as 1400000, written back as the source wrote it"
        ),
        Option("hold_numbers", True, "a translation that misses a number is held to it"),
    )

    def read(self, text: str, context: Context) -> tuple[str, list[str]]:
        if not context.options.keep_numbers:
            return text, []
        return set_apart(ungroup(text)), grouped_numbers(text)

    def held(self, sentence: str, memo: list[str], context: Context) -> Held:
        if not context.options.hold_numbers:
            return []
        numbers = numbers_to_hold(sentence, context.source)
        return [(number, as_held(number, context.to)) for number in numbers]

    def write_back(self, translation: str, memo: list[str], context: Context) -> str:
        return regroup(translation, memo)

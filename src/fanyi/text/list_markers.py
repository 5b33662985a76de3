"""List markers ("1. ", "a) ", "(3) ", "一、"): read apart from the item they number, written
back in front of its translation.

A model trained on sentences reads "1. Open the file." badly either way: cut at its period, the
"1." translated alone came out 1。 (so 1。打开文件。), and read with its item the number pulls the
translation towards copying the source ("2. Click Save." → 2. Click保存。). So a translator hands
the model the item without its marker (``list_marker``) and writes the marker back in front of
the translation (``write_marker``): as the source wrote it, and into a language written in the
Latin script with "、" as "." and Chinese numerals as digits (一、 → "1. ").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .lang import LATIN_SCRIPT, script_of
from .transform import Context, Option, Transform

CHINESE_DIGITS = "一二三四五六七八九"
_CN = f"(?:[{CHINESE_DIGITS}]?十[{CHINESE_DIGITS}]?|[{CHINESE_DIGITS}])"  # 1 to 99
# at the start of a text: a number, a lower-case letter or a Roman numeral and its period (one
# capital letter and a period is an initial: "J. K. Rowling"; "1.5" is a number), or its closing
# bracket; one in brackets; a number (or Chinese numeral) and 、 (brackets and the period also
# full-width, as Chinese text keeps them)
MARKER = re.compile(
    r"\s*(?P<marker>"
    r"(?:\d{1,3}|[a-z]|[ivx]{1,4}|[IVX]{2,4})[.．](?=\s|[^\x00-\x7f])"
    r"|(?:\d{1,3}|[a-zA-Z]|[ivx]{1,4}|[IVX]{1,4})[)）]"
    rf"|[(（](?:\d{{1,3}}|[a-zA-Z]|{_CN})[)）]"
    rf"|(?:\d{{1,3}}|{_CN})、"
    r")(?P<space>\s*)"
)
_TEXT = re.compile(r"\w")  # what the rest must hold: an item, not more punctuation


_HALF_WIDTH = str.maketrans("、．（）", "..()")


class Marker(NamedTuple):
    """A list marker as the source wrote it, and the space after it."""

    marker: str
    space: str


NO_MARKER = Marker("", "")


def list_marker(text: str) -> tuple[Marker, str]:
    """The list marker that starts ``text`` (NO_MARKER for none) and the item after it; a
    marker with nothing to number after it ("1.", "(2)") is no marker."""
    match = MARKER.match(text)
    if match is None or not _TEXT.search(text, match.end()):
        return NO_MARKER, text
    return Marker(match["marker"], match["space"]), text[match.end() :]


def write_marker(marker: Marker, translation: str, into_latin: bool) -> str:
    """``translation`` after the source's ``marker``: as written, with its space (into Chinese)
    or one space (``into_latin``, where "、" is written "." and Chinese numerals as digits)."""
    if not marker.marker:
        return translation
    if not into_latin:
        return f"{marker.marker}{marker.space}{translation}"
    written = re.sub(_CN, lambda m: str(chinese_number(m.group())), marker.marker)
    return f"{written.translate(_HALF_WIDTH)} {translation}"


def chinese_number(numeral: str) -> int:
    """The value of a Chinese numeral of one to ninety-nine (一 1, 十二 12, 二十 20, 九十九 99)."""
    tens, _, units = numeral.rpartition("十")
    if "十" not in numeral:
        return CHINESE_DIGITS.index(numeral) + 1
    ten = CHINESE_DIGITS.index(tens) + 1 if tens else 1
    return 10 * ten + (CHINESE_DIGITS.index(units) + 1 if units else 0)


class ListMarkers(Transform):
    """``keep_list_markers``: a list item's marker ("1. ", "a) ", "一、") read apart from the
    item and written back in front of its translation (not before a user's target prefix)."""

    name = "list_markers"
    options = (
        Option(
            "keep_list_markers", True, "a list item's marker (1. a) 一、) read apart, written back"
        ),
    )
    with_prefix = False

    def read(self, text: str, context: Context) -> tuple[str, Marker]:
        if not context.options.keep_list_markers:
            return text, NO_MARKER
        marker, item = list_marker(text)
        return item, marker

    def write_back(self, translation: str, memo: Marker, context: Context) -> str:
        return write_marker(memo, translation, script_of(context.to) == LATIN_SCRIPT)

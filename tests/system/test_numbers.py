"""Numbers keep their value: the bundled general model reads a number in groups of three digits
as plain digits and the translation writes it back as the source did, and reads Chinese digits
set apart from the characters (``numerals.py``). Read as written, "1,400,000" came out 十四万 (a
tenth of it). fp32, so that every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

SOURCE = "The city has 1,400,000 residents."  # made up, like the README's example

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def test_the_number_comes_back_as_written(translator):
    translation = translator(SOURCE, to="zh")
    assert "1,400,000" in translation and "万" not in translation, translation


def test_read_as_written_it_lost_its_value(translator):
    translation = translator(SOURCE, to="zh", keep_numbers=False)
    assert "1,400,000" not in translation and "1400000" not in translation, translation


def test_a_year_against_han_characters_comes_back_whole(translator):
    """Read against the characters, 2024年 came out "24" (the first two digits lost)."""
    source = "会议将于2024年3月1日举行。"
    assert "2024" in translator(source, to="en")
    assert "2024" not in translator(
        source, to="en", keep_numbers=False, hold_numbers=False, hold_dates=False
    )

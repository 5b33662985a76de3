"""Numbers keep their value (``numerals.py``): the bundled general model reads a number in groups
of three digits as plain digits, and Chinese digits set apart from the characters, so its
translation is the one of the plain or set-apart line, the number written back as the source
wrote it. Read as written, "1,400,000" can come out 十四万 (a tenth of it) and 2024年 "24". Each
test compares the model with itself, so a retrained model passes as long as the feature works
(fixed words are the golden test's); fp32, so that every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

GROUPED, PLAIN = "The city has 1,400,000 residents.", "The city has 1400000 residents."
AGAINST, APART = "会议将于2024年3月1日举行。", "会议将于 2024 年 3 月 1 日举行。"  # made up

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def test_a_grouped_number_is_read_as_plain_digits_and_written_back_as_written(translator):
    plain = translator(PLAIN, to="zh")
    assert translator(GROUPED, to="zh") == plain.replace("1400000", "1,400,000")


def test_digits_against_han_characters_are_read_set_apart(translator):
    assert translator(AGAINST, to="en") == translator(APART, to="en")


def test_read_as_written_no_number_is_kept_that_the_feature_loses(translator):
    """Held to its numbers (``hold_numbers``, ``hold_dates``), each translation holds them;
    without the features, reading the text as written, it holds no more of them."""
    cases = [(GROUPED, "zh", "1,400,000"), (AGAINST, "en", "2024")]
    off = {"keep_numbers": False, "hold_numbers": False, "hold_dates": False}
    for source, to, number in cases:
        kept = translator(source, to=to)
        assert number in kept, kept
        assert translator(source, to=to, **off).count(number) <= kept.count(number)

"""A number in groups of three digits keeps its value into Chinese: the bundled general model
reads it as plain digits and the translation writes it back as the source did
(``digit_groups.py``). Read as written, "1,400,000" came out 十四万 (a tenth of it). fp32, so that
every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.decode.translator import BUNDLED

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

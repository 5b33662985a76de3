"""Emoji and characters beyond Unicode's first plane come back as written from the bundled model
(``keep_emoji``): read freely, it wrote 😀 as 😘 and a stray byte (U+FFFD), 🇨🇳 as three U+FFFD
and a lone regional indicator, and dropped some. Each test compares the model with itself, so a
retrained model passes as long as the feature works; fp32, so that every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")

FAMILY, FLAG = "👩\u200d👩\u200d👧", "🇨🇳"
TEXTS = {
    "Good morning 😀": "😀",
    "我很高兴😀。": "😀",
    "今天天气很好🌞，我们去公园吧！": "🌞",
    "𠀀是一个字。": "𠀀",
    f"The flag {FLAG} is red.": FLAG,
    f"{FAMILY} is a family.": FAMILY,
    "Hello 😀. How are you?": "😀",
    "生日快乐🎂🎉": "🎂🎉",
    "😀": "😀",
}


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def test_every_run_comes_back_as_written_and_no_replacement_character(translator):
    translations = translator(list(TEXTS))
    for translation, run in zip(translations, TEXTS.values(), strict=True):
        assert run in translation and "\ufffd" not in translation, translation


def test_the_words_are_translated_as_without_them(translator):
    """The model reads the words alone: a text's translation is its words' translation with the
    run written in (here at the end)."""
    bare = translator("Good morning", to="zh")
    assert translator("Good morning 😀", to="zh") == f"{bare}😀"

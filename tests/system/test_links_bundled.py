"""Addresses are copied as written and phrases held to (``keep_links``, ``constraints``): a
translation that misses an address of its source is searched again, held to it, and one that
copies it is left alone. Read freely, the bundled general model can translate an e-mail
address's user name (控制台支持@example.com for "support@example.com"). Each test compares the
model with itself, so a retrained model passes as long as the feature works (fixed words are the
golden test's); fp32, so that every host decodes alike."""

import re

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")

ADDRESSES = {
    "zh": ["Contact support@example.com.", "Read https://docs.python.org/3/tutorial/ first."],
    "en": ["请联系 support@example.com。", "请在周五前把表格发到 hr@example.org。"],
}
SOURCE = "他是一名医生。"


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def address_of(source: str) -> str:
    return next(w for w in source.split() if "@" in w or "://" in w).rstrip("。.")


@pytest.mark.parametrize("to", ["zh", "en"])
def test_every_address_is_copied_as_written(translator, to):
    for source, translation in zip(ADDRESSES[to], translator(ADDRESSES[to], to=to), strict=True):
        assert address_of(source) in translation, translation


@pytest.mark.parametrize("to", ["zh", "en"])
def test_a_translation_that_copies_its_address_is_left_alone(translator, to):
    held = translator(ADDRESSES[to], to=to)
    free = translator(ADDRESSES[to], to=to, keep_links=False)
    for source, on, off in zip(ADDRESSES[to], held, free, strict=True):
        assert on == off or address_of(source) not in off, (on, off)


def test_a_phrase_the_user_wants_is_written_and_one_already_there_changes_nothing(translator):
    free = translator(SOURCE, to="en")
    (held,) = translator.translate([SOURCE], to="en", constraints=[["physician"]])
    assert "physician" in held.text and (held.text == free or "physician" not in free)
    there = max(re.findall(r"[A-Za-z]+", free), key=len)  # a word of its own translation
    (same,) = translator.translate([SOURCE], to="en", constraints=[[there]])
    assert same.text == free

"""Addresses are copied as written and phrases held to (``keep_links``, ``constraints``): the
bundled general model translated the user name of an e-mail address (control console 支持 for
"support") and writes a doctor where a user wants a physician. fp32, so every host decodes
alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")

ADDRESSES = {
    "zh": ["Contact support@example.com.", "Read https://docs.python.org/3/tutorial/ first."],
    "en": ["请联系 support@example.com。", "请在周五前把表格发到 hr@example.org。"],
}


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


@pytest.mark.parametrize("to", ["zh", "en"])
def test_every_address_is_copied_as_written(translator, to):
    for source, translation in zip(ADDRESSES[to], translator(ADDRESSES[to], to=to), strict=True):
        address = next(w for w in source.split() if "@" in w or "://" in w).rstrip("。.")
        assert address in translation, translation


def test_without_keep_links_the_user_name_was_translated(translator):
    assert "support@example.com" not in translator(ADDRESSES["zh"][0], to="zh", keep_links=False)


def test_a_phrase_the_user_wants_is_written_and_one_already_there_changes_nothing(translator):
    free = translator("他是一名医生。", to="en")
    assert "physician" not in free
    (held,) = translator.translate(["他是一名医生。"], to="en", constraints=[["physician"]])
    assert "physician" in held.text and held.text.endswith(".")
    (same,) = translator.translate(["他是一名医生。"], to="en", constraints=[["doctor"]])
    assert same.text == free

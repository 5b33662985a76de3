"""A list item's number stays its marker (``keep_list_markers``): the bundled general model read
"1. Open the file." as two sentences and wrote 1。打开文件。, and a Chinese 一、 stays a Chinese
numeral in English. fp32, so every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def test_numbered_items_keep_their_marker_and_their_item_translated_as_itself(translator):
    items = ["1. Open the file.", "2. Restart the server.", "(3) Check the logs."]
    bare = translator([item.split(" ", 1)[1] for item in items], to="zh")
    translated = translator(items, to="zh")
    assert translated == [f"{item.split()[0]} {t}" for item, t in zip(items, bare, strict=True)]
    assert not any("。" in t.split()[0] for t in translated)


def test_chinese_markers_come_out_as_digits_in_english(translator):
    first, second = translator(["一、总体要求", "（二）工作原则"], to="en")
    assert first.startswith("1. ") and second.startswith("(2) "), (first, second)

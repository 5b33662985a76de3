"""Into Chinese in Taiwan's characters and words (``chinese_script: tw``) with the bundled
general model, which writes Simplified. fp32, so every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


def test_taiwan_words_and_characters():
    translator = Translator.load(dtype="fp32")
    source = "This software needs a mouse and more memory."
    simplified = translator(source, to="zh")
    taiwan = translator(source, to="zh", chinese_script="tw")
    assert "软件" in simplified and "鼠标" in simplified, simplified
    assert "軟體" in taiwan and "滑鼠" in taiwan, taiwan

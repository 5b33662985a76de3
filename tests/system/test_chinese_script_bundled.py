"""Into Chinese in Taiwan's characters and words (``chinese_script: tw``) with the bundled
general model, which writes Simplified: the translation is the Simplified one converted by
OpenCC's Taiwan phrases (s2twp: 软件 → 軟體, 鼠标 → 滑鼠). The test compares the model with
itself, so a retrained model passes as long as the feature works (fixed words are the golden
test's); fp32, so that every host decodes alike."""

import opencc
import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


def test_taiwan_words_and_characters():
    translator = Translator.load(dtype="fp32")
    source = "This software needs a mouse and more memory."
    simplified = translator(source, to="zh")
    taiwan = translator(source, to="zh", chinese_script="tw")
    assert taiwan == opencc.OpenCC("s2twp").convert(simplified) and taiwan != simplified, taiwan

"""Inline code comes back in its backticks: the bundled general model reads it bare and the
translation gives it its backticks back (``code_spans.py``). Read with them, "`os.path.join()`"
came out with an opening quote that never closed. fp32, so that every host decodes alike."""

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

SOURCES = {  # made up, Markdown as a user pastes it
    "zh": [
        "Use the `os.path.join()` function to build paths.",
        "Set `DEBUG = False` in production.",
    ],
    "en": ["使用 `os.path.join()` 函数构建路径。", "在生产环境中设置 `DEBUG = False`。"],
}
SPANS = ["`os.path.join()`", "`DEBUG = False`"]

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


@pytest.mark.parametrize("to", ["zh", "en"])
def test_the_code_comes_back_in_its_backticks(translator, to):
    translations = translator(SOURCES[to], to=to)
    assert all(s in t for s, t in zip(SPANS, translations, strict=True)), translations


def test_read_with_its_backticks_the_code_lost_them(translator):
    translations = translator(SOURCES["zh"], to="zh", keep_code=False)
    assert not any(s in t for s, t in zip(SPANS, translations, strict=True)), translations

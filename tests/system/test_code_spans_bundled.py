"""Inline code comes back in its backticks (``code_spans.py``): the bundled general model reads
it bare, so a translation is the one of the bare line with the code given its backticks back,
and a translation that misses the code is searched again, held to it. Read with its backticks,
"`os.path.join()`" can come out with an opening quote that never closes. Each test compares
the model with itself, so a retrained model passes as long as the feature works (fixed words are
the golden test's); fp32, so that every host decodes alike."""

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
def test_the_code_is_read_bare_and_given_its_backticks_back(translator, to):
    bare = translator([s.replace("`", "") for s in SOURCES[to]], to=to)
    quoted = translator(SOURCES[to], to=to, hold_code=False)
    expected = [t.replace(span.strip("`"), span, 1) for t, span in zip(bare, SPANS, strict=True)]
    assert quoted == expected


@pytest.mark.parametrize("to", ["zh", "en"])
def test_the_code_comes_back_in_its_backticks(translator, to):
    translations = translator(SOURCES[to], to=to)
    assert all(s in t for s, t in zip(SPANS, translations, strict=True)), translations


def test_read_with_its_backticks_no_span_is_kept_that_the_feature_loses(translator):
    kept = translator(SOURCES["zh"], to="zh")
    as_written = translator(SOURCES["zh"], to="zh", keep_code=False)
    rows = zip(SPANS, kept, as_written, strict=True)
    assert all(span in on for span, on, off in rows if span in off), (kept, as_written)

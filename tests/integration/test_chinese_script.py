"""Translations into Chinese written in Traditional characters (``chinese_script``): the model
writes Simplified, OpenCC converts what it wrote; other directions, and the source's inline
code, stay as they are."""

import pytest

from fanyi import Translator
from fanyi.text.lang import to_traditional
from fanyi.text.options import TextOptions
from tiny_translator import tiny_model_dir

SOURCES = ["Tom is here.", "Where is the station?"]


@pytest.fixture(scope="module")
def translator(tmp_path_factory):
    return Translator.load(tiny_model_dir(tmp_path_factory), dtype="fp32")


@pytest.mark.parametrize("script", ["hant", "tw", "hk"])
def test_every_candidate_into_chinese_is_converted(translator, script):
    simplified = translator.translate(SOURCES, to="zh", beam=2, n_best=2)
    traditional = translator.translate(SOURCES, to="zh", beam=2, n_best=2, chinese_script=script)
    for plain, converted in zip(simplified, traditional, strict=True):
        expected = [to_traditional(c.text, script) for c in plain.candidates]
        assert [c.text for c in converted.candidates] == expected
        scores = [c.score for c in plain.candidates]
        assert [c.score for c in converted.candidates] == pytest.approx(scores, abs=1e-5)


def test_translations_into_english_are_unchanged(translator):
    assert translator("汤姆在这里。", to="en", chinese_script="tw") == translator(
        "汤姆在这里。", to="en"
    )


def test_a_script_that_is_none_is_refused():
    with pytest.raises(ValueError, match="chinese_script"):
        TextOptions(chinese_script="zh-TW")

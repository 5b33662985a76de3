"""``target_script_only`` on the bundled general model: an English translation of a news line
keeps none of its source's Han characters, which the model copies when it may (a reporter's name,
"2000余"), and a Chinese one is left as it was; ``suppress_ids`` outside the target vocabulary, or
EOS, is refused by name."""

import pytest

from fanyi import Translator
from fanyi.decode.model_names import resolve_model_dir
from fanyi.lang import has_han

pytestmark = pytest.mark.skipif(
    not resolve_model_dir("zh-en-general").is_dir(), reason="no bundled model zh-en-general"
)
NEWS = "中新网北京9月27日电 (记者 杜燕)为加强节前市场监管执法，北京市市场监管局检查各类经营主体2000余户。"


@pytest.fixture(scope="module")
def translator():
    return Translator.load("zh-en-general", dtype="fp32")


def test_an_english_translation_holds_no_han_character(translator):
    assert has_han(translator(NEWS, to="en", target_script_only=False))  # what the model copies
    assert not has_han(translator(NEWS, to="en"))  # the default
    english = "The Beijing Administration for Market Regulation inspected 2,000 businesses."
    chinese = translator(english, to="zh")
    assert chinese == translator(english, to="zh", target_script_only=False) and has_han(chinese)


@pytest.mark.parametrize("bad", [[16000], [3]])
def test_suppress_ids_beyond_the_vocabulary_or_eos_are_refused(translator, bad):
    with pytest.raises(ValueError, match="suppress_ids must be ids of the target vocabulary"):
        translator("你好。", suppress_ids=bad)

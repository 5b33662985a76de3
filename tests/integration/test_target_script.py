"""``target_script_only`` on the bundled general model: an English translation of a news line
keeps none of its source's Han characters, which the model copies when it may (a name it cannot
translate: "力克荷兰" comes out "power荷兰"), and a Chinese one is left as it was; ``script_penalty`` leaves fewer English words in a
Chinese one; ``suppress_ids`` and ``penalized_ids`` outside the target vocabulary, or EOS, are
refused by name."""

import re

import pytest

from fanyi import Translator
from fanyi.text.lang import has_han
from fanyi.translate.model_names import resolve_model_dir

pytestmark = pytest.mark.skipif(
    not resolve_model_dir("zh-en-general").is_dir(), reason="no bundled model zh-en-general"
)
ENGLISH = (
    "Using data and artificial intelligence to boost revenues is part of the bank's broader push, "
    "a key priority for its interim chief executive Noel Quinn."
)
LATIN_WORD = re.compile("[A-Za-z]+")
NEWS = "27日，在对阵荷兰女排的比赛中，中国队在连赢两局的情况下被对手扳回一城，最终以3:1力克荷兰，迎来九连胜。"


@pytest.fixture(scope="module")
def translator():
    return Translator.load("zh-en-general", dtype="fp32")


def test_an_english_translation_holds_no_han_character(translator):
    # the model copies a name it cannot translate where it may ("力克荷兰" came out "power荷兰");
    # whether it does depends on the model, so only the default is checked here, with every
    # hold that could write the name off
    free = {"keep_numbers": False, "hold_names": False}
    assert not has_han(translator(NEWS, to="en", **free))
    assert not has_han(translator(NEWS, to="en"))  # the default
    english = "The Beijing Administration for Market Regulation inspected 2,000 businesses."
    chinese = translator(english, to="zh")
    assert chinese == translator(english, to="zh", target_script_only=False) and has_han(chinese)


@pytest.mark.parametrize("key", ["suppress_ids", "penalized_ids"])
@pytest.mark.parametrize("bad", [[16000], [3]])
def test_ids_beyond_the_vocabulary_or_eos_are_refused(translator, key, bad):
    with pytest.raises(ValueError, match="penalized_ids must be ids of the target vocabulary"):
        translator("你好。", **{key: bad})


def test_a_script_penalty_leaves_fewer_english_words_in_chinese(translator):
    """Into Chinese, the model keeps the names and words it cannot translate in English; with a
    script penalty β each such piece costs β, and fewer are left (docs/decoding.md)."""
    kept = [len(LATIN_WORD.findall(translator(ENGLISH, to="zh", script_penalty=b))) for b in (0, 2)]
    assert kept[0] > kept[1]
    assert translator("Hello.", to="zh", script_penalty=2) == translator("Hello.", to="zh")


def test_the_pieces_penalised_into_chinese_hold_latin_letters_and_no_special_one(translator):
    text = translator.text
    pieces = [text.tgt_vocab.id_to_piece(i) for i in text.target.other_script("zh")]
    assert "▁data" in pieces and all(LATIN_WORD.search(p) for p in pieces)
    assert not any(p.startswith("<") for p in pieces)  # </s>, <2en>, bytes such as <0xE4>
    assert set(text.target.other_script("en")) == set(text.target.foreign("en"))

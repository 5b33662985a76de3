"""Headlines in Title Case and lines in capitals are read in sentence case (``recase.py``, by the
model's truecase.txt), so each is translated as its sentence-case line is. Read as written, the
bundled general model can copy such a line back in English ("PLEASE DO NOT TOUCH。"). Each test
compares the model with itself, so a retrained model passes as long as the feature works (fixed
words are the golden test's); fp32, so that every host decodes alike."""

import re

import pytest

from fanyi import Translator
from fanyi.text.recase import read_headlines, read_lowercase, recasable
from fanyi.translate.model_names import BUNDLED_MODELS
from fanyi.translate.translator import BUNDLED

HEADLINES = [  # newstest2020 en→zh (held out from every training mix)
    "The Next Big Labor Strike Hits Oregon",
    "Government Retires 15 More Senior Tax Officials On Graft Charges",
    "PLEASE DO NOT TOUCH.",
    "WHERE IS THE TRAIN STATION?",
]
ENGLISH_WORD = re.compile(r"[A-Za-z]+")

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def in_sentence_case(lines: list[str], model: str) -> list[str]:
    """``lines`` as bundled model ``model`` reads them: in sentence case by its truecase.txt."""
    read = read_headlines(lines, read_lowercase(BUNDLED_MODELS / model / "truecase.txt"))
    assert not any(map(recasable, read)) and all(r != h for r, h in zip(read, lines, strict=True))
    return read


def english_words(translations: list[str]) -> int:
    return sum(len(ENGLISH_WORD.findall(t)) for t in translations)


def test_headlines_are_translated_as_their_sentence_case(translator):
    read = in_sentence_case(HEADLINES, "zh-en-general")
    assert translator(HEADLINES, to="zh") == translator(read, to="zh")


def test_recased_they_leave_no_more_english_than_as_written(translator):
    recased = translator(HEADLINES, to="zh")
    as_written = translator(HEADLINES, to="zh", recase_headlines=False)
    assert english_words(recased) <= english_words(as_written), (recased, as_written)


def test_the_tatoeba_ensemble_reads_capitals_by_its_own_table():
    """Its truecase.txt is its own (Tatoeba's English). Read as written, "I LOVE YOU." can come
    out 总裁者我的总裁。"""
    ensemble = Translator.load("zh-en", dtype="fp32")
    lines = ["I LOVE YOU.", "WHERE IS THE TRAIN STATION?"]
    recased = ensemble(lines, to="zh")
    assert recased == ensemble(in_sentence_case(lines, "zh-en"), to="zh")
    as_written = ensemble(lines, to="zh", recase_headlines=False)
    assert english_words(recased) <= english_words(as_written), (recased, as_written)


LABELS = ["Bus", "Dinner", "Room", "Entrance", "Subway"]  # signs and menu words, alone


def test_a_label_of_one_word_is_translated_as_the_word_in_a_sentence(translator):
    """Read as written, the general model takes a lone capitalised word for a name and spells
    it out ("Bus" 布斯, "Dinner" 杜尼尔); read in lower case, it translates it."""
    read = translator(LABELS, to="zh")
    assert read == translator([label.lower() for label in LABELS], to="zh")
    as_written = translator(LABELS, to="zh", recase_headlines=False)
    assert sum(r != w for r, w in zip(read, as_written, strict=True)) >= 3, (read, as_written)

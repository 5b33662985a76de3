"""Headlines in Title Case and lines in capitals get translated, not copied: the bundled general
model reads them in sentence case by its truecase.txt (``recase.py``). Without it, it wrote
newstest2020's "The Next Big Labor Strike Hits Oregon" back in English, and "PLEASE DO NOT
TOUCH." as "PLEASE DO NOT TOUCH。". fp32, so that every host decodes alike."""

import re

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

HEADLINES = [  # newstest2020 en→zh (held out from every training mix)
    "The Next Big Labor Strike Hits Oregon",
    "Government Retires 15 More Senior Tax Officials On Graft Charges",
    "PLEASE DO NOT TOUCH.",
    "WHERE IS THE TRAIN STATION?",
]
LATIN_RUN = re.compile(r"[A-Za-z]+(?:\s+[A-Za-z]+)+")  # two words or more left in English

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def test_headlines_are_translated(translator):
    translations = translator(HEADLINES, to="zh")
    assert not [t for t in translations if LATIN_RUN.search(t)], translations


def test_without_recasing_they_were_copied(translator):
    translations = translator(HEADLINES, to="zh", recase_headlines=False)
    assert [t for t in translations if LATIN_RUN.search(t)] == translations, translations


def test_the_tatoeba_ensemble_reads_capitals_too():
    """Its truecase.txt is its own (Tatoeba's English); without it: 总裁者我的总裁。"""
    ensemble = Translator.load("zh-en", dtype="fp32")
    assert ensemble("I LOVE YOU.", to="zh") == "我爱你。"
    assert ensemble("I LOVE YOU.", to="zh", recase_headlines=False) != "我爱你。"

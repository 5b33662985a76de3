"""Names and set phrases as people write them (``hold_names``), on the bundled general model: each
source of the table is compared with the same model's translation with the option off, so a
retrained model passes as long as the feature works (fixed words are the golden test's); fp32,
so that every host decodes alike. A user's glossary is held to and reported on the same model."""

import re

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")

# source, target, what the translation holds
TABLE = [
    ("我叫王小明。", "en", ["My name is Wang Xiaoming"]),
    ("我叫安娜。", "en", ["My name is Anna"]),  # a name read in English with spaces around
    ("我住在台北。", "en", ["Taipei"]),
    ("我们去长城吧。", "en", ["Great Wall"]),
    ("他在上海交通大学读书。", "en", ["Shanghai Jiao Tong University"]),
    # held as whole words: the search does not run "Li Wei" into "Li Weiwei"
    ("李伟是我的同事。", "en", ["Li Wei"]),
    # read in pinyin: the given name is not translated after it as well ("Li Wei Hoti is")
    ("李伟是我的同事。", "en", ["Li Wei is"]),
    ("生日快乐，陈静！", "en", ["Chen Jing!"]),
    ("我住在台北。", "en", ["in Taipei"]),  # not "north of the Taipei"
    ("她跟CNN的记者谈了。", "en", ["CNN"]),  # a name in Latin letters inside Chinese
    ("Airport", "zh", ["机场"]),  # a word alone, the model's own 阿尔港
    ("My friend Li Wei works at Microsoft.", "zh", ["李伟", "微软"]),
    ("Happy New Year!", "zh", ["新年快乐"]),
    ("生日快乐！", "en", ["Happy birthday"]),
    # searched again read as "San Francisco", which the model then places itself
    ("我的朋友下个月搬到旧金山。", "en", ["San Francisco"]),
    ("1842年签订了南京条约。", "en", ["Treaty of Nanjing"]),
    ("我们去西湖吧。", "en", ["West Lake"]),  # not "Xihu"
    ("我明年想去清华大学读书。", "en", ["Tsinghua University"]),
]


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


@pytest.mark.parametrize("source, to, names", TABLE)
def test_each_name_is_written_as_the_other_language_writes_it(translator, source, to, names):
    held, free = translator(source, to=to), translator(source, to=to, hold_names=False)
    assert all(name in held for name in names), held
    assert held == free or not all(name in free for name in names), (held, free)


def test_a_name_read_in_english_is_written_as_whole_words(translator):
    pairs = [
        ("旧金山警察局称该案正在调查。", "San Francisco"),
        ("他们签订了南京条约。", "Treaty of Nanjing"),
        ("我的朋友下个月搬到旧金山。", "San Francisco"),
    ]
    for source, english in pairs:
        held = translator(source, to="en")
        assert re.search(rf"(?<![A-Za-z]){english}(?![A-Za-z])", held), held


def test_a_translation_that_names_them_already_is_left_alone(translator):
    source = "我们去北京吧。"  # the model writes Beijing by itself
    free = translator(source, to="en", hold_names=False)
    assert "Beijing" in free and translator(source, to="en") == free


def test_nothing_is_held_while_sampling(translator):
    (result,) = translator.translate(["我住在台北。"], to="en", sampling=True, seed=3)
    assert result.error is None and result.text


def test_a_glossary_term_is_held_and_one_the_search_cannot_place_is_reported(translator):
    glossary = [("台北", "Taipei City"), ("同事", "teammate")]
    (held,) = translator.translate(["李伟是我在台北的同事。"], to="en", glossary=glossary)
    assert "Taipei City" in held.text and "teammate" in held.text and not held.unplaced, held
    (sampled,) = translator.translate(
        ["我住在台北。"], to="en", glossary=[("台北", "Qxzv")], sampling=True, seed=1
    )
    assert sampled.unplaced == [("台北", "Qxzv")], sampled.text

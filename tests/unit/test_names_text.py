"""Names found in a sentence and what the other language writes for each (``text/names.py``):
the dictionary's names at jieba's word boundaries, Chinese person names in pinyin, pinyin names
in English in characters; what is no name is left alone."""

import pytest

from fanyi.text import pipeline
from fanyi.text.names import (
    given_in_hanzi,
    in_pinyin,
    names_to_hold,
    split_name,
    tables,
)
from fanyi.text.options import TextOptions
from fanyi.text.transform import Context


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("我住在台北。", [("台北", "Taipei")]),
        ("我们去长城吧。", [("长城", "Great Wall")]),
        ("他在上海交通大学读书。", [("上海交通大学", "Shanghai Jiao Tong University")]),
        ("我叫王小明。", [("我叫王小明", "My name is Wang Xiaoming")]),  # the speaker's own
        ("他叫王小明。", [("王小明", "Wang Xiaoming")]),
        ("我叫王小明来。", [("王小明", "Wang Xiaoming")]),  # "I told him to come"
        ("李伟是我的同事。", [("李伟", "Li Wei")]),
        ("欧阳修是宋代文学家。", [("欧阳修", "Ouyang Xiu"), ("宋代", "Song")]),  # "Song dynasty"
        ("新年快乐！", [("新年快乐", "Happy New Year")]),
        ("他想去美国。", [("美国", "United States")]),
        ("普京先生表示同意。", [("普京", "Putin")]),  # the surname the text names him by
        ("弗拉基米尔·普京来了。", [("弗拉基米尔·普京", "Vladimir Putin")]),  # one name
        ("他们在叙利亚边境。", [("叙利亚", "Syria\x1fSyrian")]),  # the adjective may hold it
        ("菲利普随后向南推进。", [("菲利普", "Philip")]),  # CedPane's, not "Fei Lipu"
        ("莱尼一直是单身。", [("莱尼", "Laney\x1fLeni\x1fLenny")]),  # any of its forms
        ("他生于桑德兰附近。", [("桑德兰", "Sunderland")]),  # GeoNames', not "Sang Delan"
        ("她去了蒙特利尔。", [("蒙特利尔", "Montreal")]),  # the dictionary's before GeoNames'
        ("目标是霍默。", [("霍默", "Homer")]),  # no Chinese person "Huo Mo"
        ("罗伊和戴夫来了。", [("罗伊", "Roy"), ("戴夫", "Dave")]),  # not Luo Yi and Dai Fu
        ("卡特琳娜来了。", [("卡特琳娜", "Katerina")]),  # holding no Carter
        ("他和艾玛·斯通主演。", [("艾玛", "Emma")]),  # a name dot: no Ai Ma
        ("她叫麦考伊 (Anthony McCoy)。", [("Anthony McCoy", "Anthony McCoy")]),  # brackets name him
        (  # brackets after a joined name give it: held as they write it, not twice
            "由杰弗里·迪恩·摩根（Jeffrey Dean Morgan）饰演。",
            [("Jeffrey Dean Morgan", "Jeffrey Dean Morgan\x1fjeffrey dean morgan")],
        ),
        (  # the forms of a name's parts paired, each word once
            "杰弗里·迪恩·摩根来了。",
            [("杰弗里·迪恩·摩根", "Geoffrey Deanne Morgan\x1fJeffery Deanne Morgan")],
        ),
        (  # the brackets name him: no "Bai Ge"
            "前五位是柏葛 (Lester Piggott) 和他。",
            [("Lester Piggott", "Lester Piggott\x1flester piggott")],
        ),
    ],
)
def test_chinese_names_and_set_phrases_are_found_with_their_english(sentence, names):
    assert names_to_hold(sentence, "zh") == names


@pytest.mark.parametrize(
    "sentence",
    [
        "王子很高兴。",  # a prince: a common word jieba tags as a name
        "昨天的事真的要谢谢您了。",  # 谢谢 starts it: no Mr Xie
        "李先生在家。",  # a title after the surname
        "所有美国人都需要缴税。",  # Americans, not the country
        "我不喜欢茶，所以我早餐大致上都喝咖啡。",  # 上都 is no word here
        "小王来了。",  # no surname first
        "一架蓝白相间的直升机。",  # colours, not Lan Bai
        "甚至达到更高水平。",  # 水平 "level", a common word, not Gao Shuiping
        "西米德兰兹郡警方救出一名婴儿。",  # West Midlands: 米德兰 is no Mi Delan
        "这是属于科斯佩达尔的。",  # Cospedal: CedPane's 科斯 and 达尔 are inside a longer name
        "他在纽马基特赢了。",  # Newmarket: no 基特 "Keate"
        "潘沃尔卡先生说了。",  # Panvalkar: no 沃尔卡 "Walka", no Pan Wo
    ],
)
def test_what_is_no_name_is_left_alone(sentence):
    assert names_to_hold(sentence, "zh") == []


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("My friend Li Wei works at Microsoft.", [("Li Wei", "李伟"), ("Microsoft", "微软")]),
        ("Wang Xiaoming lives in Beijing.", [("Wang Xiaoming", "王小明"), ("Beijing", "北京")]),
        ("Xi Jinping met them.", [("Xi Jinping", "习近平")]),  # the dictionary's, not a guess
        ("Happy New Year!", [("Happy New Year", "新年快乐")]),
        ("I saw Mary.", [("Mary", "玛丽")]),
    ],
)
def test_english_names_are_found_with_their_chinese(sentence, names):
    assert names_to_hold(sentence, "en") == names


@pytest.mark.parametrize(
    "sentence",
    [
        "He Said that.",  # "He" reads as no surname
        "Output is shown in the Shell window.",  # Chinese text keeps a foreign name in Latin
        "Linux and ASCII.",
        "Li was here.",  # a surname without a given name
        "Zhang Qrst came.",  # a given name the table cannot write
    ],
)
def test_english_words_and_foreign_names_are_left_to_the_model(sentence):
    assert names_to_hold(sentence, "en") == []


@pytest.mark.parametrize(
    "surname, given, written",
    [
        ("王", "小明", "Wang Xiaoming"),
        ("李", "伟", "Li Wei"),
        ("李", "天恩", "Li Tian'en"),  # a syllable that starts with a vowel after another
        ("欧阳", "修", "Ouyang Xiu"),  # a compound surname
        ("曾", "国藩", "Zeng Guofan"),  # a surname's own reading (not ceng)
        ("单", "田芳", "Shan Tianfang"),
        ("吕", "小明", "Lü Xiaoming"),
    ],
)
def test_a_chinese_name_is_written_in_pinyin_surname_first_given_name_joined(
    surname, given, written
):
    assert in_pinyin(surname, given) == written


def test_a_name_splits_into_surname_and_given_name():
    assert split_name("王小明") == ("王", "小明")
    assert split_name("欧阳修") == ("欧阳", "修")
    assert split_name("王老师") is None and split_name("王子") is None
    assert split_name("汤姆斯坦") is None  # a given name of three characters


def test_a_given_name_in_pinyin_is_written_in_one_or_two_characters():
    assert given_in_hanzi("Wei") == "伟"
    assert given_in_hanzi("Xiaoming") == "小明"
    assert given_in_hanzi("Tian'en") == "天恩"
    assert given_in_hanzi("Qrst") is None


def test_the_tables_are_small_and_every_english_name_reads_back():
    known = tables()
    assert 1000 < len(known.english) < len(known.written) < 20000
    assert 40000 < len(known.chinese) < 60000  # CedPane's and GeoNames' names into English too
    assert "桑德兰" in known.foreign and "桑德兰" not in known.written
    assert all(known.chinese[zh] == en for en, zh in known.english.items())
    assert list(known.surnames)[:3] == ["王", "李", "张"]


def test_the_transform_holds_names_only_between_chinese_and_english_and_when_on():
    options = TextOptions()
    reading = pipeline.read("我住在台北。", Context("zh", "en", options))
    assert reading.held("我住在台北。") == ["Taipei"]
    off = pipeline.read("我住在台北。", Context("zh", "en", options.replace(hold_names=False)))
    assert off.held("我住在台北。") == []
    german = pipeline.read("Ich wohne in Beijing.", Context("de", "en", options))
    assert german.held("Ich wohne in Beijing.") == []

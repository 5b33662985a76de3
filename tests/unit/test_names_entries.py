"""A line that is one dictionary entry alone (``text/entries.py``): held to the entry's senses,
any of which holds it; into Chinese the common headwords of an English line, a lone word only
where the model's text writes it in lower case and its commonest headword gives it first; a name
or a longer line is left to the names."""

import itertools

from fanyi.text import entries
from fanyi.text.entries import whole_entry
from fanyi.text.names import names_to_hold
from fanyi.text.transform import ALTERNATIVES


def forms(held) -> list[str]:
    ((_, target),) = held
    return target.split(ALTERNATIVES)


def test_a_chinese_entry_alone_is_held_to_its_senses_capitalised():
    assert forms(whole_entry("请进！", "zh")) == ["Please come in"]
    thanks = forms(whole_entry("谢谢。", "zh"))
    assert thanks[0] == "Thank" and "Thank you" in thanks
    assert whole_entry("好", "zh") == []  # one character: too many senses
    assert whole_entry("我想去机场。", "zh") == []  # a sentence, no entry


def test_an_english_entry_alone_is_held_to_its_common_headwords():
    assert forms(whole_entry("Good morning!", "en")) == ["早安"]
    assert forms(whole_entry("Have a nice trip!", "en")) == ["一帆风顺"]  # a later sense
    assert forms(whole_entry("It doesn\u2019t matter", "en"))  # a curly apostrophe
    for word in ("Airport", "Right", "Check", "Python", "Water"):  # no truecasing table
        assert whole_entry(word, "en") == []
    lowercase = {"airport", "check", "example", "water", "methods"}
    assert forms(whole_entry("Airport", "en", lowercase))[:2] == ["机场", "飞机场"]
    assert whole_entry("Python", "en", lowercase) == []  # a name: not in lower case in the text
    assert whole_entry("Check", "en", lowercase) == []  # more a verb ("to check")
    assert whole_entry("Example", "en", lowercase) == []  # 例子 "case; instance; example"
    assert whole_entry("Methods", "en", lowercase) == []  # 套套: too rare a word
    assert whole_entry("I went to the airport yesterday with my friends", "en") == []


def test_an_entry_comes_before_the_names_in_it_and_a_name_before_an_entry():
    assert names_to_hold("中国菜", "zh") == [("中国菜", "Chinese cuisine")]
    assert names_to_hold("北京", "zh") == [("北京", "Beijing")]
    assert names_to_hold("Beijing", "en") == [("Beijing", "北京")]


def test_a_headword_found_in_the_tables_text_has_the_senses_of_its_row(monkeypatch):
    table = entries.chinese_entries()
    sample = [*itertools.islice(table, 0, None, 997), "中国", "我叫王小明", "谢"]
    for headword in sample:  # the first lookups search the text
        monkeypatch.setattr(entries, "_looked_up", itertools.count())
        assert entries.chinese_senses(headword) == table.get(headword, "")
    monkeypatch.setattr(entries, "_looked_up", itertools.count(entries.FIRST_LOOKUPS))
    assert entries.chinese_senses("请进") == table["请进"] == "please come in"

"""Numbers read as plain digits set apart from Han characters, and written back (``numerals.py``)."""

import pytest

from fanyi.text.numerals import (
    as_held,
    grouped_numbers,
    numbers_to_hold,
    regroup,
    set_apart,
    ungroup,
    whole,
)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("The city has 1,400,000 residents.", ["1,400,000"]),
        ("It costs $1,299.99, not 999.", ["1,299.99"]),
        ("从3,500人增加到12,345,678人。", ["3,500", "12,345,678"]),
        ("Lists stay: 1,2,3 and 10,20.", []),
        ("So do malformed groups: 1,000,00 and 12,3456.", []),
        ("And decimals before a comma: 3.1,000.", []),
        ("No groups in 2019 or 1400000.", []),
    ],
)
def test_grouped_numbers_are_found_and_nothing_else(text, numbers):
    assert grouped_numbers(text) == numbers


def test_ungroup_drops_only_the_separators():
    assert (
        ungroup("From 3,500 to 12,345,678.5, then 1,2,3.") == "From 3500 to 12345678.5, then 1,2,3."
    )


def test_regroup_writes_each_number_back_as_the_source_wrote_it():
    numbers = grouped_numbers("1,400,000 people paid $1,299.99 and 1,400,000 more came.")
    assert regroup("1400000人付了1299.99美元，又来了1400000人。", numbers) == (
        "1,400,000人付了1,299.99美元，又来了1,400,000人。"
    )


def test_regroup_leaves_a_number_the_translation_writes_another_way():
    numbers = grouped_numbers("The city has 1,400,000 residents.")
    assert regroup("这座城市有140万居民。", numbers) == "这座城市有140万居民。"


def test_regroup_matches_whole_numbers_only():
    numbers = ["1,000"]
    assert regroup("21000 and 10001 and 1000.5", numbers) == "21000 and 10001 and 1,000.5"
    assert regroup("11,000 and 1000", ["1,000", "11,000"]) == "11,000 and 1,000"


def test_ungroup_then_regroup_gives_the_text_back():
    text = "Sales rose from 25,000 to 1,250,000.75 units (2,019 shops)."
    assert regroup(ungroup(text), grouped_numbers(text)) == text


@pytest.mark.parametrize(
    ("text", "apart"),
    [
        ("会议将于2024年3月1日举行。", "会议将于 2024 年 3 月 1 日举行。"),
        ("共3000人，3.5%的增长。", "共 3000 人，3.5%的增长。"),  # nor are "，" and "%" digits
        ("已经 2024 年了", "已经 2024 年了"),
        ("Room 101 and 5G", "Room 101 and 5G"),
    ],
)
def test_set_apart_puts_a_space_between_digits_and_han_characters(text, apart):
    assert set_apart(text) == apart


@pytest.mark.parametrize(
    ("text", "lang", "held"),
    [
        ("气温在 2023 年 5 月 12 日升至 38.5°C。", "zh", ["2023", "12", "38.5"]),  # not the month
        ("500 万人和 3 亿元，20 多人", "zh", []),  # 5 million, 300 million, "over 20"
        ("在 20 世纪 70 年代末", "zh", []),  # "in the late 1970s"
        ("The price is $1299.99 for 2 of them.", "en", ["1299.99", "2"]),
        ("5 million people, 3.5bn dollars, 7 Million", "en", []),
        ("Version 1.2.3, at 10:30, in 2019 and 2019 again.", "en", ["10", "30", "2019"]),
    ],
)
def test_the_numbers_a_translation_keeps_as_digits_are_held(text, lang, held):
    assert numbers_to_hold(text, lang) == held


def test_a_number_is_held_only_as_a_whole_number():
    assert whole("12", "on May 12, 2023") and not whole("12", "in 2012 and 120")
    assert not whole("3.5", "3.55 or 13.5") and whole("3.5", "rose 3.5%")
    assert whole("a@b.org", "write to a@b.org.")


@pytest.mark.parametrize(
    "phrase, text, held",
    [
        ("Li Wei", "Li Weiwei is my colleague.", False),  # another name
        ("Li Wei", "I met Li Wei.", True),
        ("Li Wei", "Zhang Li Wei's car", True),  # an apostrophe is no letter
        ("Wei", "Weiwei", False),
        ("Taipei", "我住在Taipei。", True),  # Chinese text runs a Latin name on
        ("Taipei", "Taipei2024", True),  # a digit is no letter
        ("Zürich", "Zürichsee", False),
        ("GitHub", "非GitHub用户", True),
        ("API", "the APIs", False),
        ("台北", "台北市", True),  # Han text has no word boundaries to keep
        ("2023", "May 2023.", True),
        ("12", "12a", True),
    ],
)
def test_latin_words_are_held_only_as_whole_words(phrase, text, held):
    assert whole(phrase, text) is held


@pytest.mark.parametrize(
    ("number", "to", "held"),
    [
        ("6", "en", "6\x1fsix\x1fSix"),  # "six inches" holds 6
        ("12", "en", "12\x1ftwelve\x1fTwelve"),
        ("0", "en", "0\x1fzero\x1fZero"),
        ("13", "en", "13"),
        ("06", "en", "06"),  # a number written with its zero is copied
        ("6.5", "en", "6.5"),
        ("6", "zh", "6"),
    ],
)
def test_into_english_a_number_up_to_twelve_may_be_its_word(number, to, held):
    assert as_held(number, to) == held

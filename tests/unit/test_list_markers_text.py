"""List markers read apart from their item and written back in front (``list_markers.py``)."""

import pytest

from fanyi.text.list_markers import NO_MARKER, Marker, chinese_number, list_marker, write_marker


@pytest.mark.parametrize(
    ("text", "marker", "item"),
    [
        ("1. Open the file.", Marker("1.", " "), "Open the file."),
        ("  12) Save it.", Marker("12)", " "), "Save it."),
        ("a. Check the cable.", Marker("a.", " "), "Check the cable."),
        ("iv. Results", Marker("iv.", " "), "Results"),
        ("IV. Results", Marker("IV.", " "), "Results"),
        ("(3) The Minister may", Marker("(3)", " "), "The Minister may"),
        ("2.实地巡查。", Marker("2.", ""), "实地巡查。"),
        ("一、总体要求", Marker("一、", ""), "总体要求"),
        ("（十二）附则", Marker("（十二）", ""), "附则"),
        ("3、打开文件。", Marker("3、", ""), "打开文件。"),
        ("３．检查日志。", Marker("３．", ""), "检查日志。"),
    ],
)
def test_a_list_item_gives_its_marker_and_its_item(text, marker, item):
    assert list_marker(text) == (marker, item)


@pytest.mark.parametrize(
    "text",
    [
        "1.5 million people came.",  # a number
        "J. K. Rowling wrote it.",  # an initial
        "I. M. Pei built it.",
        "a.m. is early.",
        "Mr. Smith is here.",
        "1.",  # nothing to number
        "(2)",
        "2. ",
        "1、。",
        "十一十、x",  # not a numeral
        "Chapter 1. Results",
        "2019 was a good year.",
    ],
)
def test_what_is_not_a_list_item_stays_as_it_is(text):
    assert list_marker(text) == (NO_MARKER, text)


def test_the_marker_is_written_back_as_the_source_wrote_it_into_chinese():
    assert write_marker(Marker("1.", " "), "打开文件。", into_latin=False) == "1. 打开文件。"
    assert write_marker(Marker("一、", ""), "总体要求", into_latin=False) == "一、总体要求"


def test_into_english_chinese_numerals_become_digits_and_the_marker_gets_a_space():
    assert write_marker(Marker("一、", ""), "General", into_latin=True) == "1. General"
    assert write_marker(Marker("（二）", ""), "Principles", into_latin=True) == "(2) Principles"
    assert write_marker(Marker("３．", ""), "Check.", into_latin=True) == "３. Check."
    assert write_marker(Marker("2.", ""), "Visit.", into_latin=True) == "2. Visit."
    assert write_marker(NO_MARKER, "Visit.", into_latin=True) == "Visit."


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("一", 1), ("九", 9), ("十", 10), ("十二", 12), ("二十", 20), ("九十九", 99), ("三十一", 31)],
)
def test_chinese_numerals(numeral, value):
    assert chinese_number(numeral) == value

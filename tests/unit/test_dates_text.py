"""Chinese dates as English writes them (``dates.py``)."""

import pytest

from fanyi.text.dates import chinese_dates, dates_to_hold, english_dates
from fanyi.text.numerals import set_apart


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("2023年5月12日", [("2023年5月12日", "May 12, 2023")]),
        ("8月11日，开幕。", [("8月11日", "August 11")]),
        ("2014年8月，他离开了。", [("2014年8月", "August 2014")]),
        ("5月12号是星期五。", [("5月12号", "May 12")]),
        ("从3月1日到12月31日", [("3月1日", "March 1"), ("12月31日", "December 31")]),
        ("5月很热。", []),  # a month alone is the model's to name
        ("13月1日", []),  # no such month
        ("2月40日", []),  # no such day
        ("第1.5月", []),
        ("", []),
    ],
)
def test_dates_with_a_day_or_a_year(text, dates):
    assert english_dates(text) == dates


def test_dates_are_found_as_the_model_reads_them():
    """keep_numbers sets digits apart from Han characters (2024 年 3 月 1 日)."""
    read = set_apart("会议将于2024年3月1日举行。")
    assert [english for _, english in english_dates(read)] == ["March 1, 2024"]


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("On August 11, the fair opened.", [("August 11", "8月11日")]),
        ("On 11 August 2023 it rained.", [("11 August 2023", "2023年8月11日")]),
        ("He left in August 2014.", [("August 2014", "2014年8月")]),
        ("Since September 30th, 2019, prices rose.", [("September 30th, 2019", "2019年9月30日")]),
        ("In August, it rained.", []),  # a month alone
        ("It may 5", []),  # a verb
        ("August 40 came", []),
        ("August 2014 to 2016 on March 12345", [("August 2014", "2014年8月")]),
    ],
)
def test_english_dates_as_chinese_writes_them(text, dates):
    assert chinese_dates(text) == dates


def test_only_between_chinese_and_english():
    assert dates_to_hold("8月11日", "zh", "en") == [("8月11日", "August 11")]
    assert dates_to_hold("August 11", "en", "zh") == [("August 11", "8月11日")]
    assert dates_to_hold("August 11", "en", "de") == dates_to_hold("8月11日", "zh", "de") == []

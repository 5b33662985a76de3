"""recase.py: which lines are headlines in Title Case, how they are read in sentence case, and
the truecaser's table of words written in lower case."""

import pytest

from fanyi.text.recase import (
    is_all_caps,
    is_title_case,
    lowercase_words,
    read_headlines,
    read_label,
    read_lowercase,
    write_table,
)

LOWER = {"next", "big", "labor", "strike", "hits", "more", "senior", "tax", "officials"}


@pytest.mark.parametrize(
    "line",
    [
        "The Next Big Labor Strike Hits Oregon",
        "Government Retires 15 More Senior Tax Officials On Graft Charges",
        "28-Year-Old Chef Found Dead at San Francisco Mall",
        "Romania Invests Billions in a Black Sea Military Base",
    ],
)
def test_headlines_are_title_case(line):
    assert is_title_case(line)


@pytest.mark.parametrize(
    "line",
    [
        "The next big labor strike hits Oregon.",
        "Tom and Mary went to Boston.",  # names: 2 of 3 other words
        "NHS Lanarkshire treated 912 people.",
        "BREAKING NEWS FROM OREGON",  # all capitals: the other test
        "Good Morning",  # too few words
        "你好，世界。欢迎来到北京。",
    ],
)
def test_sentences_are_not(line):
    assert not is_title_case(line)


@pytest.mark.parametrize(
    ("line", "caps"),
    [
        ("PLEASE DO NOT TOUCH.", True),
        ("I LOVE YOU.", True),
        ("BREAKING NEWS FROM OREGON", True),
        ("NASA.", False),  # one word: an acronym
        ("A CAT", False),
        ("NHS Lanarkshire treated 912 people.", False),
    ],
)
def test_lines_in_capitals(line, caps):
    assert is_all_caps(line) is caps


def test_a_line_in_capitals_is_read_in_sentence_case_and_unknown_words_stay():
    lines = ["BIG STRIKE HITS OREGON", "I SAW THE NEXT STRIKE.", "NHS"]
    assert read_headlines(lines, LOWER) == [
        "Big strike hits OREGON",  # a name or an acronym: the table cannot tell, so as written
        "I SAW the next strike.",
        "NHS",
    ]


def test_in_title_case_a_word_in_capitals_is_an_acronym():
    assert read_headlines(["US Tax Officials Hit Hard"], LOWER | {"us"}) == [
        "US tax officials Hit Hard"  # "hit", "hard": not in the table
    ]


def test_a_headline_is_read_in_sentence_case_and_names_stay():
    lines = ["The Next Big Labor Strike Hits Oregon", "NHS Strike Hits The Senior Officials Of Ayr"]
    assert read_headlines(lines, LOWER) == [
        "The next big labor strike hits Oregon",
        "NHS strike hits the senior officials of Ayr",  # "The" inside: lowered as a small word
    ]


def test_the_first_word_keeps_its_capital_and_other_lines_are_untouched():
    lines = ["Next Big Strike Hits Oregon", "Senior officials said Next Big was done."]
    assert read_headlines(lines, LOWER) == [
        "Next big strike hits Oregon",
        "Senior officials said Next Big was done.",
    ]


def test_the_table_holds_the_words_mostly_written_in_lower_case_inside_sentences():
    lines = [
        "Strike one: the workers strike again.",  # first word not counted
        "They went on strike in Oregon.",
        "In Oregon the Mall and the mall met.",
        "A mall opened; another mall closed.",
        "The Big Mall Opens In Oregon Today",  # a headline: not counted
        "Big news: big mall.",
    ]
    assert lowercase_words(lines, min_count=2) == ["mall", "strike", "the"]
    assert "big" in lowercase_words(lines, min_count=1)
    assert "oregon" not in lowercase_words(lines, min_count=1)


def test_no_table_no_words(tmp_path):
    assert read_lowercase(tmp_path / "truecase.txt") == frozenset()
    (tmp_path / "truecase.txt").write_text("mall\nstrike\n", encoding="utf-8")
    assert read_lowercase(tmp_path / "truecase.txt") == {"mall", "strike"}


def test_a_line_that_is_not_utf8_costs_only_itself(tmp_path):
    text = tmp_path / "train.txt"
    text.write_bytes(b"A bad \xff byte here.\n" + b"<2zh> One strike, then a strike.\n")
    assert write_table(tmp_path / "truecase.txt", [text], min_count=2) == 1
    assert read_lowercase(tmp_path / "truecase.txt") == {"strike"}


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        ("Mall", "mall"),  # a label: the word as a sentence writes it
        ("Strike!", "strike!"),
        ("  Mall.", "  mall."),
        ("Oregon", "Oregon"),  # not in the table: a name
        ("Hello", "Hello"),  # a whole utterance alone
        ("Thanks!", "Thanks!"),
        ("Big mall", "Big mall"),  # two words: a sentence
        ("MALL", "MALL"),  # capitals: an acronym or a sign, is_all_caps's
        ("McMall", "McMall"),
        ("Mall 5", "Mall 5"),
        ("Mall商场", "Mall商场"),
    ],
)
def test_a_label_of_one_capitalised_word_is_read_in_lower_case(sentence, read):
    assert read_label(sentence, LOWER | {"mall", "hello", "thanks"}) == read


def test_labels_are_read_among_the_other_sentences():
    lines = ["Mall", "Strike Hits The Big Mall", "Mall opens."]
    assert read_headlines(lines, LOWER | {"mall"}) == [
        "mall",
        "Strike hits the big mall",
        "Mall opens.",
    ]

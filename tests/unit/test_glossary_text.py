"""A user's glossary (``text/glossary.py``): read from a TSV file, a list of pairs or a mapping;
each pair applied both ways; a term found as written (a Latin term only as whole words); held to
its translation, and reported where a translation misses it. The option's value is a path or
the terms themselves, over the CLI, the API, a config file and HTTP."""

import argparse

import pytest
from pydantic import ValidationError

from fanyi.cli.decode_flags import add_decode_flags
from fanyi.serve import schemas
from fanyi.text import options as text_options_module
from fanyi.text import pipeline
from fanyi.text.glossary import Glossary, found_in, placed, read_glossary
from fanyi.text.options import TextOptions
from fanyi.text.transform import Context

PAIRS = (
    ("数据库", "database"),
    ("API", "API"),
    ("widget", "小部件"),
    ("机器学习", "machine learning"),
)


@pytest.fixture
def tsv(tmp_path):
    path = tmp_path / "terms.tsv"
    path.write_text("# product names\n数据库\tdatabase\n\nAPI\tAPI\n", encoding="utf-8")
    return path


def test_a_glossary_is_read_from_a_file_a_list_or_a_mapping(tsv):
    pairs = (("数据库", "database"), ("API", "API"))
    assert read_glossary(tsv).pairs == pairs
    assert read_glossary(str(tsv)).pairs == pairs
    assert read_glossary([["数据库", "database"], ("API", "API")]).pairs == pairs
    assert read_glossary({"数据库": "database", "API": "API"}).pairs == pairs
    assert read_glossary(None) == read_glossary("") == Glossary()
    assert str(Glossary()) == "none" and str(read_glossary(tsv)) == "2 terms"


@pytest.mark.parametrize(
    "lines, where", [("数据库\n", ":1"), ("a\tb\tc\n", ":1"), ("ok\tfine\n \tx\n", ":2")]
)
def test_a_line_that_is_not_two_terms_is_refused_by_file_and_line(tmp_path, lines, where):
    path = tmp_path / "bad.tsv"
    path.write_text(lines, encoding="utf-8")
    with pytest.raises(ValueError, match=f"bad.tsv{where}: a glossary entry is a term"):
        read_glossary(path)
    with pytest.raises(ValueError, match="glossary pair 1"):
        read_glossary([["only one"]])


def test_each_pair_applies_both_ways_in_each_language_s_script():
    glossary = Glossary(PAIRS)
    assert glossary.oriented("zh", "en") == [
        ("机器学习", "machine learning"),
        ("数据库", "database"),
        ("API", "API"),
        ("小部件", "widget"),
    ]
    assert glossary.oriented("en", "zh") == [
        ("machine learning", "机器学习"),
        ("database", "数据库"),
        ("widget", "小部件"),
        ("API", "API"),
    ]


def test_a_term_is_found_as_written_a_latin_one_as_whole_words():
    pairs = Glossary(PAIRS).oriented("en", "zh")
    assert found_in("The widget calls the API.", pairs) == [("widget", "小部件"), ("API", "API")]
    assert found_in("Widgets use APIs.", pairs) == []  # not inside another word
    assert found_in("Machine learning is fun.", pairs) == [("machine learning", "机器学习")]
    assert found_in("MACHINE LEARNING", pairs) == []


def test_the_transform_holds_each_term_and_reports_one_the_translation_misses():
    options = TextOptions(glossary=PAIRS)
    reading = pipeline.read("Machine learning needs a database.", Context("en", "zh", options))
    assert reading.held("Machine learning needs a database.") == ["机器学习", "数据库"]
    assert reading.unplaced("机器学习需要一个数据库。") == []
    assert reading.unplaced("机器学习需要一个资料库。") == [("database", "数据库")]
    taiwan = Context("en", "zh", options.replace(chinese_script="tw"))
    written = pipeline.read("Use a database.", taiwan)
    assert written.unplaced("使用一個資料庫。") == []  # 数据库 as Taiwan writes it


def test_without_a_glossary_nothing_is_held_or_reported():
    reading = pipeline.read("A database.", Context("en", "zh", TextOptions()))
    assert reading.held("A database.") == [] and reading.unplaced("一个。") == []


def test_the_option_is_a_flag_a_config_key_and_an_http_field(tsv):
    parser = argparse.ArgumentParser()
    add_decode_flags(parser)
    assert parser.parse_args(["--glossary", str(tsv)]).glossary == str(tsv)
    assert TextOptions(glossary=str(tsv)).glossary.pairs[0] == ("数据库", "database")
    assert TextOptions(glossary=str(tsv)) == TextOptions(
        glossary=[["数据库", "database"], ["API", "API"]]
    )
    request = schemas.translate_request()
    body = request(text=["数据库"], glossary=[["数据库", "database"]])
    assert TextOptions(**body.options()).glossary.pairs == (("数据库", "database"),)
    with pytest.raises(ValidationError):  # never a path on the server
        request(text=["数据库"], glossary=str(tsv))
    row = "| `glossary` | `--glossary` (a TSV file) | `none` |"
    assert row in text_options_module.markdown()


@pytest.mark.parametrize(
    "target, translation, held",
    [
        ("function", "The functions are called.", True),  # a plural
        ("function", "Functions are called.", True),  # a sentence's first word
        ("function", "a functional style", False),  # run into a longer word
        ("Li Wei", "Li Weiwei is here.", False),
        ("API", "the API.", True),
        ("C++", "use C++ now", True),
        ("数据库", "数据库已经备份。", True),
        ("data store", "The data stores are full.", True),
    ],
)
def test_a_translation_holds_a_latin_term_as_whole_words(target, translation, held):
    assert placed(target, translation) is held

"""Inline code read without its backticks and given them back (``code_spans.py``)."""

import pytest

from fanyi.text.code_spans import code_spans, requote, unquote


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("Use `os.path.join()` to build paths.", ["`os.path.join()`"]),
        ("RST writes ``code here`` and Markdown `x`.", ["``code here``", "`x`"]),
        ("在生产环境中设置 `DEBUG = False`。", ["`DEBUG = False`"]),
        ("A lone ` backtick.", []),
        ("A blank `  ` span.", []),
        ("LaTeX quotes ``character'' are not code.", []),
        ("Code on two lines `a\nb` is not one span.", []),
    ],
)
def test_spans_are_found_and_nothing_else(text, spans):
    assert code_spans(text) == spans


def test_unquote_drops_only_the_backticks():
    assert unquote("Set `DEBUG = False` and ``--verbose``.") == "Set DEBUG = False and --verbose."


def test_requote_puts_the_backticks_back_where_the_code_is_copied():
    spans = code_spans("Use `os.path.join()` and ``--verbose``.")
    assert requote("使用 os.path.join() 和 --verbose。", spans) == (
        "使用 `os.path.join()` 和 ``--verbose``。"
    )


def test_code_the_translation_changed_stays_as_the_model_wrote_it():
    assert requote("“-verbose”标志", ["`--verbose`"]) == "“-verbose”标志"


def test_a_name_is_matched_as_a_whole_word_even_beside_han_characters():
    assert requote("设置DEBUG，不是DEBUGGER", ["`DEBUG`"]) == "设置`DEBUG`，不是DEBUGGER"
    assert requote("x和xy和x", ["`x`", "`x`"]) == "`x`和xy和`x`"


def test_a_span_already_in_backticks_is_not_quoted_again():
    assert requote("已经 `os` 了，os", ["`os`"]) == "已经 `os` 了，os"


@pytest.mark.parametrize(
    "text",
    [
        "Call `list.sort()` to sort `items` in place, then ``print(items)``.",
        r"Backslashes stay: `C:\new\table` and `\d+`.",
    ],
)
def test_unquote_then_requote_gives_the_text_back(text):
    assert requote(unquote(text), code_spans(text)) == text


def test_a_long_line_with_a_stray_backtick_is_read_in_one_pass():
    """A pattern with nested repeats took seconds on such a line (quadratic); this one is linear."""
    line = "`" + "word " * 50_000
    assert code_spans(line) == [] and unquote(line) == line

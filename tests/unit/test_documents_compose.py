"""A segment's translation written with its markup: held spans where the translation holds their
code, wraps around the translation of their words, piece by piece where one cannot be placed."""

from fanyi.documents.compose import compose, joined, piecewise
from fanyi.documents.segment import Break, Held, Text, Wrap, plain, requests
from fanyi.documents.tags import tagged
from fanyi.documents.translating import translate_segments


def escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def dictionary(table: dict[str, str]):
    """A translator that knows ``table``'s texts and fails on any other."""

    def translate(texts: list[str]) -> list[str | None]:
        return [table.get(text) for text in texts]

    return translate


def test_a_wrap_goes_around_the_translation_of_its_words():
    segment = tagged("Hello <b>world</b>!", entities=True)
    assert requests(segment) == ["Hello world!", "world"]
    table = {"Hello world!": "你好，世界！", "world": "世界"}
    out, report = translate_segments([segment], dictionary(table), escape_html, "zh")
    assert out == ["你好，<b>世界</b>！"]
    assert report.whole == 1


def test_a_wrap_is_found_in_any_case_and_takes_the_sentence_s_own_words():
    segment = tagged("请阅读<a href='x'>文档</a>。", entities=True)
    table = {"请阅读文档。": "Please read the documentation.", "文档": "Documentation"}
    out, _ = translate_segments([segment], dictionary(table), escape_html, "en")
    assert out == ["Please read the <a href='x'>documentation</a>."]


def test_held_code_is_put_back_as_written_where_the_translation_copies_it():
    segment = (Text("Run "), Held("<code>make &amp;&amp; go</code>", "make && go"), Text(" now."))
    assert plain(segment) == "Run `make && go` now."
    table = {"Run `make && go` now.": "现在运行 `make && go`。"}
    assert compose(segment, table, escape_html) == "现在运行 <code>make &amp;&amp; go</code>。"


def test_markup_that_cannot_be_placed_is_written_piece_by_piece_and_nothing_is_lost():
    segment = (Text("Visit my "), Wrap("<a href='p'>", "</a>", (Text("project page"),)), Text("."))
    table = {
        "Visit my project page.": "访问我的主页。",
        "project page": "项目页面",
        "Visit my": "访问我的",
    }
    out, report = translate_segments([segment], dictionary(table), escape_html, "zh")
    assert out == ["访问我的<a href='p'>项目页面</a>."]
    assert report.piecewise == 1


def test_a_segment_the_translator_fails_is_left_as_it_was():
    out, report = translate_segments([(Text("Unknown words"),)], dictionary({}), escape_html, "zh")
    assert out == [None] and report.failed == 1


def test_breaks_cut_a_segment_into_parts_translated_alone():
    segment = (Text("- Hi."), Break("\n"), Text("- Bye."))
    table = {"- Hi.": "- 嗨。", "- Bye.": "- 再见。"}
    out, _ = translate_segments([segment], dictionary(table), str, "zh")
    assert out == ["- 嗨。\n- 再见。"]


def test_markup_that_shows_no_words_at_either_end_stays_there():
    segment = (Held("<img src=a.png>"), Text(" Birds "), Held("<br>"))
    assert compose(segment, {"Birds": "鸟"}, escape_html) == "<img src=a.png> 鸟 <br>"


def test_a_wrap_of_the_whole_segment_is_kept_outside_its_translation():
    segment = (Text(" "), Wrap("**", "**", (Text("Note"),)), Text(" "))
    assert requests(segment) == ["Note"]
    assert compose(segment, {"Note": "注意"}, str) == " **注意** "


def test_words_run_together_with_a_space_into_english_and_none_between_han():
    assert joined(["Please read", "<b>", "the docs"], "en") == "Please read <b>the docs"
    assert joined(["Read", "<b>it</b>", "now"], "en") == "Read <b>it</b> now"
    assert joined(["Please read", "the docs"], "en") == "Please read the docs"
    assert joined(["请 ", "阅读"], "zh-TW") == "请阅读"


def test_piecewise_translates_the_runs_of_nested_wraps():
    inner = (Text("very "), Wrap("<i>", "</i>", (Text("big"),)))
    segment = (Text("A "), Wrap("<b>", "</b>", inner), Text(" house"))
    table = {"A": "一座", "very": "非常", "big": "大", "house": "房子", "very big": "非常大"}
    assert (
        piecewise(segment, table, str, "zh") == "一座<b>非常<i>大</i></b>房子"
    )  # the inner wrap placed whole

"""Each format on real files nobody here wrote (tests/fixtures/documents/README.md): translated
by a stand-in translator (upper case), the output re-parsed by the same parser has the same
structure, its code, addresses, timings and markup byte for byte, the words translated, and
every line with nothing to translate as it was."""

import json
import re
from pathlib import Path

import lxml.etree
import lxml.html
import pytest
import srt
import webvtt

from fanyi.documents import html, i18n_json, markdown, plain, subtitles, xliff
from fanyi.documents.registry import FORMATS, format_for
from fanyi.documents.translating import translate_segments

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "documents"


def upper(texts: list[str]) -> list[str]:
    return [text.upper() for text in texts]


def translated(document, to: str = "zh") -> str:
    translations, report = translate_segments(document.segments, upper, document.escape, to)
    assert report.failed == 0
    return document.write(translations, to).decode("utf-8")


def untouched_lines_kept(source: str, regions: list[tuple[int, int]], out: str) -> None:
    """Every line of ``source`` that no region touches is in ``out``, in order."""
    touched, at = set(), 0
    for number, line in enumerate(source.split("\n")):
        if any(start <= at + len(line) and end >= at for start, end in regions):
            touched.add(number)
        at += len(line) + 1
    kept = iter(out.split("\n"))
    for number, line in enumerate(source.split("\n")):
        if number not in touched:
            assert any(line == found for found in kept), f"line {number + 1} changed: {line!r}"


@pytest.mark.parametrize("name", ["nanogpt-readme.md", "jieba-readme.zh.md"])
def test_a_readme_keeps_its_blocks_code_and_untouched_lines(name):
    data = (FIXTURES / name).read_bytes()
    document = markdown.read(data, name)
    out = translated(document, to="en")
    source = data.decode("utf-8")
    assert markdown.skeleton(out) == markdown.skeleton(source)
    untouched_lines_kept(source, document.regions, out)
    assert document.write([None] * len(document.segments), "en") == data


def test_a_readme_s_words_are_translated_around_its_code_and_links():
    data = (FIXTURES / "nanogpt-readme.md").read_bytes()
    out = translated(markdown.read(data, "nanogpt-readme.md"))
    assert "## INSTALL\n" in out and "| GPT2-MEDIUM | 350M  |" in out
    assert "[NANOCHAT](https://github.com/karpathy/nanochat)" in out
    assert "`torch.compile`" in out and "`--compile=False`" in out


def test_markdown_constructs_each_keep_their_markup():
    source = (
        "---\ntitle: Front matter\n---\n"
        "Setext heading\n===\n\n"
        "> A quote that\n> runs on **two** lines.\n\n"
        "A line  \nbroken hard, *then* `code`, <https://example.org> and [a *ref*][r].\n\n"
        '<div align="center">\n  <b>HTML block</b>\n</div>\n\n'
        '| cell \\| pipe | ![alt text](a.png) |\n| --- | --- |\n| `x` | [link](u "t") |\n\n'
        "    indented code\n\n"
        "[r]: https://example.org/ref\n"
    )
    document = markdown.read(source.encode(), "constructs.md")
    out = translated(document)
    assert out.startswith("---\ntitle: Front matter\n---\nSETEXT HEADING\n===\n")
    assert "> A QUOTE THAT RUNS ON **TWO** LINES." in out
    assert "A LINE  \nBROKEN HARD, *THEN* `code`, <https://example.org> AND [A *REF*][r]." in out
    assert '<div align="center">\n  <b>HTML block</b>\n</div>' in out
    assert "| CELL \\| PIPE | ![ALT TEXT](a.png) |" in out
    assert '[LINK](u "t")' in out and "    indented code\n" in out
    assert markdown.skeleton(out) == markdown.skeleton(source)


def test_words_that_look_like_markup_are_escaped():
    document = markdown.read(b"Text.\n", "x.md")
    out = document.escape("# 1. *a* [b] <tag> a_b _c_ <3")
    assert out == "\\# 1. \\*a\\* \\[b\\] \\<tag> a_b \\_c\\_ <3"
    assert document.escape("1. first") == "1\\. first"


def test_subrip_keeps_numbers_and_timings_and_rewraps_each_cue():
    data = (FIXTURES / "sintel.en.srt").read_bytes()
    document = subtitles.read_srt(data, "sintel.en.srt")
    out = translated(document, to="en")
    before, after = list(srt.parse(data.decode())), list(srt.parse(out))
    assert [(c.index, c.start, c.end) for c in after] == [(c.index, c.start, c.end) for c in before]
    for old, new in zip(before, after, strict=True):
        assert new.content.replace("\n", " ") == old.content.replace("\n", " ").upper()
        assert len(new.content.split("\n")) == len(old.content.split("\n"))
        assert all(len(line) <= subtitles.WIDTHS["en"] for line in new.content.split("\n"))


def test_webvtt_keeps_its_style_block_identifiers_settings_and_tags():
    data = (FIXTURES / "styles2.vtt").read_bytes()
    document = subtitles.read_vtt(data, "styles2.vtt")
    out = translated(document, to="en")
    before, after = webvtt.from_string(data.decode()), webvtt.from_string(out)
    fields = [(c.identifier, c.start, c.end, str(c.settings)) for c in before.captions]
    assert [(c.identifier, c.start, c.end, str(c.settings)) for c in after.captions] == fields
    assert [s.text for s in after.styles] == [s.text for s in before.styles]
    for old, new in zip(before.captions, after.captions, strict=True):
        assert new.text.replace("\n", " ") == old.text.upper().replace("&LT;", "&lt;")
    assert "<c.magenta.bg_black><i>SOME ITALIC</i> AND NORMAL" in out  # a line too long: two
    assert (
        len(after.captions[2].lines) == 2
        and "2 &lt; 3 !</c>" in out
        and "<c.magenta.bg_black>---</c>" in out
    )
    untouched_lines_kept(data.decode(), document.regions, out)


def elements(page: str) -> list[tuple]:
    """Every element's tag and attributes but the translated ones, and what code holds."""
    root = lxml.html.document_fromstring(page.encode())
    translated_names = ("alt", "title", "placeholder", "lang")
    found: list[tuple] = []
    for element in root.iter():
        attributes = {k: v for k, v in element.attrib.items() if k not in translated_names}
        found.append((element.tag, attributes))
        if element.tag in ("script", "style", "pre", "code", "kbd", "var", "samp"):
            found.append(lxml.html.tostring(element, with_tail=False))
    return found


@pytest.mark.parametrize("name", ["birdwatching.html", "other-semantics.html"])
def test_a_page_keeps_its_elements_and_code_and_sets_its_language(name):
    data = (FIXTURES / name).read_bytes()
    document = html.read(data, name)
    out = translated(document)
    assert elements(out) == elements(data.decode())
    assert lxml.html.document_fromstring(out.encode()).get("lang") == "zh"
    assert out.replace('lang="zh"', "") != data.decode()


def test_a_page_s_attributes_and_inline_elements_are_translated_in_place():
    out = translated(html.read((FIXTURES / "birdwatching.html").read_bytes(), "b.html"))
    assert '<img src="dove.png" alt="A SIMPLE DOVE LOGO">' in out
    assert '<li><a href="#">GET STARTED</a></li>' in out
    assert "<title>BIRDWATCHING</title>" in out
    assert (
        '<p><a href="http://game-icons.net/lorc/originals/dove.html">DOVE ICON</a> BY LORC.</p>'
        in out
    )
    assert (
        '<link href="https://fonts.googleapis.com/css?family=Roboto+Condensed:300%7CCinzel' in out
    )
    code = translated(html.read((FIXTURES / "other-semantics.html").read_bytes(), "o.html"))
    assert "<code>&lt;font&gt;</code> AND <code>&lt;center&gt;</code>." in code
    assert '<abbr title="REVEREND">REV.</abbr> GREEN' in code
    assert "alert('Owww, stop poking me!');" in code


def test_what_html_leaves_alone():
    page = (
        '<html><body><p translate="no">Keep me</p><script>var s = "Words";</script>'
        "<style>p::before { content: 'Words'; }</style><pre>Pre words</pre>"
        '<textarea placeholder="Type here">Area words</textarea><p>Go<br>now</p></body></html>'
    )
    out = translated(html.read(page.encode(), "p.html"), to="en")
    assert out == (
        '<html lang="en"><body><p translate="no">Keep me</p><script>var s = "Words";</script>'
        "<style>p::before { content: 'Words'; }</style><pre>Pre words</pre>"
        '<textarea placeholder="Type here">Area words</textarea><p>GO<br>NOW</p></body></html>'
    )


KEPT_IN_MESSAGES = re.compile(
    r"\{\w+(?:, *\w+)*\}|</?\d+>|\b(?:plural|select)\b|(?:=\d+|\bone|\bother|male|female) \{|#|%s"
)


def keys_and_kinds(value: object) -> object:
    """A JSON value's keys and the kind of each leaf."""
    if isinstance(value, dict):
        return {key: keys_and_kinds(item) for key, item in value.items()}
    if isinstance(value, list):
        return [keys_and_kinds(item) for item in value]
    return type(value).__name__


def test_an_i18n_file_keeps_its_keys_placeholders_and_plurals():
    data = (FIXTURES / "react-icu.en.json").read_bytes()
    document = i18n_json.read(data, "react-icu.en.json")
    out = translated(document)
    before, after = json.loads(data), json.loads(out)
    assert keys_and_kinds(after) == keys_and_kinds(before)
    for key, value in before.items():
        assert KEPT_IN_MESSAGES.findall(after[key]) == KEPT_IN_MESSAGES.findall(value), key
        assert after[key] != value and after[key].lower() == value.lower()
    assert after["testKey"].startswith("{itemsCount3, plural,  =0 { THERE IS <0>NO</0> ITEM. }")
    assert [line.split('": ')[0] for line in out.split("\n")] == [
        line.split('": ')[0] for line in data.decode().split("\n")
    ]


def test_json_values_left_as_they_were_keep_their_own_escapes():
    data = b'{"a": "caf\\u00e9 \\/ bar", "n": [1, "\\u4f60\\u597d"], "b": "Hi"}'
    document = i18n_json.read(data, "x.json")
    out = document.write([None] * len(document.segments), "zh")
    assert out == data
    assert document.write(["Hé", "你", "嗨"][: len(document.segments)], "zh").startswith(
        b'{"a": "H\\u00e9"'
    )


FILLED = re.compile(r'\n\s*<target state="needs-review-translation">.*?</target>', re.DOTALL)


def test_xliff_units_without_a_translation_get_one_and_nothing_else_changes():
    data = (FIXTURES / "angular-messages.xlf").read_bytes()
    out = translated(xliff.read(data, "messages.xlf"))
    assert FILLED.sub("", out).replace(' target-language="zh"', "") == data.decode()
    root = lxml.etree.fromstring(out.encode())
    units = root.findall(".//{*}trans-unit")
    assert len(units) == 9 and all(len(u.findall("{*}target")) == 1 for u in units)
    for unit in units:
        source, target = unit.find("{*}source"), unit.find("{*}target")
        codes = [(x.tag, dict(x.attrib)) for x in source]
        assert [(x.tag, dict(x.attrib)) for x in target] == codes
        source_text = lxml.etree.tostring(source, encoding="unicode", with_tail=False)
        target_text = lxml.etree.tostring(target, encoding="unicode", with_tail=False)
        assert KEPT_IN_MESSAGES.findall(target_text) == KEPT_IN_MESSAGES.findall(source_text)
    assert '=1 {ONE MINUTE AGO} other {<x id="INTERPOLATION"' in out


def test_xliff_translated_units_are_left_alone_and_a_copied_source_is_filled():
    data = (FIXTURES / "symfony-security.zh_CN.xlf").read_bytes()
    document = xliff.read(data, "security.zh_CN.xlf")
    assert len(document.segments) == 1  # the one unit whose target is still to translate
    out = translated(document)
    before, after = data.decode().split("\n"), out.split("\n")
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert changed == [
        (
            '                <target state="needs-translation">Too many failed login attempts, '
            "please try again in %minutes% minutes.</target>",
            '                <target state="needs-review-translation">TOO MANY FAILED LOGIN '
            "ATTEMPTS, PLEASE TRY AGAIN IN %minutes% MINUTES.</target>",
        )
    ]


def test_xliff_2_fills_a_segment_and_marks_it_translated():
    data = (
        b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">\n'
        b'<file id="f"><unit id="1"><segment><source>Hello <pc id="1">world</pc>!</source>'
        b"</segment></unit>\n"
        b'<unit id="2" translate="no"><segment><source>Keep</source></segment></unit>\n'
        b'<unit id="3"><segment state="final"><source>Done</source><target>Fait</target>'
        b"</segment></unit></file></xliff>\n"
    )
    out = translated(xliff.read(data, "v2.xlf"))
    assert out == data.decode().replace('srcLang="en"', 'srcLang="en" trgLang="zh"').replace(
        '<segment><source>Hello <pc id="1">world</pc>!</source>',
        '<segment state="translated"><source>Hello <pc id="1">world</pc>!</source>'
        '<target>HELLO <pc id="1">WORLD</pc>!</target>',
    )


def test_plain_text_keeps_indentation_and_empty_lines():
    document = plain.read(b"  Hello there.\n\n\tSecond line  \n--\n", "a.txt")
    assert translated(document) == "  HELLO THERE.\n\n\tSECOND LINE  \n--\n"


def test_a_byte_order_mark_and_crlf_line_ends_are_written_back():
    document = plain.read(b"\xef\xbb\xbfOne.\r\nTwo.\r\n", "a.txt")
    assert document.write(["1.", "2."], "en") == b"\xef\xbb\xbf1.\r\n2.\r\n"


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("bad.srt", b"1\n00:00:01,000 --> nonsense\nHello\n", "bad.srt: not a SubRip (.srt) file"),
        ("bad.vtt", b"00:01.000 --> 00:02.000\nHello\n", "bad.vtt: not a WebVTT (.vtt) file"),
        ("bad.html", b"no tags at all", "bad.html: not an HTML file"),
        ("bad.md", b"caf\xe9", "bad.md: not UTF-8 (byte 3)"),
        (
            "bad.json",
            b'{\n  // "a": "b",\n  "c": "d"\n}',
            "bad.json: not JSON: Expecting property name",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_file(name, data, says):
    with pytest.raises(ValueError) as refused:
        format_for(name).read(data, name)
    assert str(refused.value).startswith(says)
    assert "\n" not in str(refused.value)


def test_a_format_is_chosen_by_extension_or_by_name():
    assert format_for("README.MD").name == "markdown"
    assert format_for("x.htm").name == "html" and format_for("x.txt").name == "text"
    assert format_for("notes", "markdown") is FORMATS["markdown"]
    with pytest.raises(ValueError, match=r"no document format reads \.rtf"):
        format_for("report.rtf")
    with pytest.raises(ValueError, match="no document format 'rtf'"):
        format_for("x.md", "rtf")

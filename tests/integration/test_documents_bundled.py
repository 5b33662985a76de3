"""Documents through the bundled model: the markup lands on the words it marked (a ``<b>`` around
the translation of "world", a link around that of its text, emphasis around "documentation"),
code stays as written, and each subtitle cue comes back in Chinese, broken at a readable width,
its timings as they were."""

import io
import json
from pathlib import Path

import docx
import pytest
import srt

from fanyi import Translator
from fanyi.documents import html, i18n_json, markdown, subtitles, word, xliff
from fanyi.documents.translating import translate_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "documents"
HAN = range(0x4E00, 0xA000)


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def chinese(text: str) -> bool:
    return any(ord(c) in HAN for c in text)


def test_inline_html_stays_around_the_words_it_marks(translator):
    page = (
        b"<html><body><p>Hello <b>world</b>!</p>"
        b'<p>Visit my <a href="p.html">project homepage</a>.</p>'
        b"<p>Run <code>make test</code> before you push.</p></body></html>"
    )
    out, report = translate_document(html.read(page, "p.html"), translator, "zh")
    text = out.decode()
    bold = text.split("<b>")[1].split("</b>")[0]
    link = text.split('<a href="p.html">')[1].split("</a>")[0]
    assert chinese(bold) and chinese(link) and "<code>make test</code>" in text
    assert text.startswith('<html lang="zh">') and report.whole == 3


def test_markdown_emphasis_and_code_into_english(translator):
    source = "# 安装\n\n请先阅读**文档**，然后运行 `pip install fanyi`。\n"
    out, report = translate_document(markdown.read(source.encode(), "a.md"), translator, "en")
    text = out.decode()
    assert text.startswith("# ") and not chinese(text)
    assert "`pip install fanyi`" in text and "**" in text and report.whole == 2
    emphasised = text.split("**")[1]
    assert "documentation" in emphasised.lower()


def test_sintel_s_cues_come_back_in_chinese_at_a_readable_width(translator):
    data = (FIXTURES / "sintel.en.srt").read_bytes()
    out, report = translate_document(subtitles.read_srt(data, "sintel.en.srt"), translator, "zh")
    before, after = list(srt.parse(data.decode())), list(srt.parse(out.decode()))
    assert [(c.index, c.start, c.end) for c in after] == [(c.index, c.start, c.end) for c in before]
    assert all(chinese(cue.content) for cue in after) and report.failed == 0
    for cue in after:
        lines = cue.content.split("\n")
        assert all(len(line) <= subtitles.WIDTHS["zh"] for line in lines) or len(lines) == 1


def test_an_i18n_file_into_chinese_keeps_placeholders_and_what_is_chinese_already(translator):
    data = '{\n  "greeting": "Welcome, {name}!",\n  "done": "你好",\n  "n": "{n, plural, one {# new message} other {# new messages}}"\n}\n'
    out, _ = translate_document(i18n_json.read(data.encode(), "zh.json"), translator, "zh")
    values = json.loads(out)
    assert "{name}" in values["greeting"] and chinese(values["greeting"])
    assert values["done"] == "你好" and '"done": "你好"' in out.decode()
    assert values["n"].startswith("{n, plural, one {# ") and "} other {# " in values["n"]
    assert chinese(values["n"])


def test_an_xliff_unit_still_to_translate_is_filled_with_its_placeholder(translator):
    data = (FIXTURES / "symfony-security.zh_CN.xlf").read_bytes()
    out, report = translate_document(xliff.read(data, "security.xlf"), translator, "zh")
    filled = (
        out.decode().split('<target state="needs-review-translation">')[1].split("</target>")[0]
    )
    assert "%minutes%" in filled and chinese(filled) and report.whole == 1


def test_a_bold_word_in_a_word_file_stays_bold_in_chinese(translator):
    made = docx.Document()
    paragraph = made.add_paragraph("Click ")
    paragraph.add_run("Save").bold = True
    paragraph.add_run(" to keep your changes.")
    buffer = io.BytesIO()
    made.save(buffer)
    out, report = translate_document(word.read(buffer.getvalue(), "a.docx"), translator, "zh")
    runs = docx.Document(io.BytesIO(out)).paragraphs[0].runs
    bold = "".join(r.text for r in runs if r.bold)
    assert chinese(bold) and report.whole == 1
    assert chinese("".join(r.text for r in runs if not r.bold))


def test_links_and_italics_whose_words_alone_are_not_found_are_placed_in_the_whole_sentence(
    translator,
):
    data = (FIXTURES / "par-hyperlinks.docx").read_bytes()
    out, report = translate_document(word.read(data, "par-hyperlinks.docx"), translator, "zh")
    assert report.piecewise == 0 and report.failed == 0
    before, after = docx.Document(io.BytesIO(data)), docx.Document(io.BytesIO(out))
    for source, done in zip(before.paragraphs, after.paragraphs, strict=True):
        assert sorted(h.address for h in done.hyperlinks) == sorted(
            h.address for h in source.hyperlinks
        )
        assert all(chinese(h.text) for h in done.hyperlinks)
    cue = b"WEBVTT\n\n00:01.000 --> 00:02.000\n<i>Some italic</i> and normal coloured text.\n"
    out, report = translate_document(subtitles.read_vtt(cue, "a.vtt"), translator, "zh")
    italic = out.decode().split("<i>")[1].split("</i>")[0]
    assert report.whole == 1 and chinese(italic)

"""A sentence with markup is translated as one text, and each wrap whose words' own translation is
not in the sentence's goes around the target words the model's alignment links to its words.

The stand-in translator writes a text's words backwards in upper case after their count ("3: C B
A"), so that a wrap's words translated alone ("2: B A") are never found in the sentence's
translation; its alignment links each word to its source word."""

import io
import re
from pathlib import Path
from types import SimpleNamespace

import docx
import torch
from hypothesis import HealthCheck, given, settings
from test_documents_fuzz import BLOCK

from fanyi.documents import markdown, subtitles, word
from fanyi.documents.alignment import Aligned, aligned
from fanyi.documents.markdown import skeleton
from fanyi.documents.segment import plain
from fanyi.documents.translating import translate_segments

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "documents"


def kept(text: str) -> list[str]:
    """A Markdown text's blocks and markup in any order (a translation may move a wrap)."""
    return sorted(map(repr, skeleton(text)))


def backwards(text: str) -> Aligned:
    """``text``'s words backwards, in upper case, after their count; each linked to its own."""
    words = list(re.finditer(r"\S+", text))
    out, links = f"{len(words)}:", []
    for word_found in reversed(words):
        out += " "
        links.append((len(out), len(out) + len(word_found.group()), *word_found.span()))
        out += word_found.group().upper()
    return Aligned(out, tuple(links), tuple(links))


class Recording:
    """The stand-in translator, and every text it was asked to translate (aligned or not)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.aligned: list[str] = []

    def translate(self, texts: list[str]) -> list[str]:
        self.asked += texts
        return [backwards(text).text for text in texts]

    def align(self, texts: list[str]) -> list[Aligned]:
        self.aligned += texts
        return [backwards(text) for text in texts]


def test_a_markdown_sentence_with_bold_and_a_link_is_translated_as_one_text():
    source = "Read **the fine** manual at [our site](https://example.org/a) today.\n"
    document = markdown.read(source.encode(), "a.md")
    recording = Recording()
    out, report = translate_segments(
        document.segments, recording.translate, document.escape, "en", recording.align
    )
    sentence = "Read the fine manual at our site today."
    assert recording.aligned == [sentence]
    assert sentence in recording.asked and "manual at" not in recording.asked
    assert report.whole == 1 and report.piecewise == 0
    written = document.write(out, "en").decode()
    assert written == "8: TODAY. [SITE OUR](https://example.org/a) AT MANUAL **FINE THE** READ\n"
    assert kept(written) == kept(source)


def test_a_webvtt_cue_wholly_in_italics_is_translated_inside_them_as_one_text():
    data = b"WEBVTT\n\n00:01.000 --> 00:02.000\n<i>Where are you going tonight?</i>\n"
    document = subtitles.read_vtt(data, "a.vtt")
    recording = Recording()
    out, report = translate_segments(
        document.segments, recording.translate, document.escape, "en", recording.align
    )
    assert recording.asked == ["Where are you going tonight?"] and recording.aligned == []
    assert report.whole == 1
    assert b"\n<i>5: TONIGHT? GOING YOU ARE WHERE</i>\n" in document.write(out, "en")


def test_a_webvtt_cue_with_italic_words_is_translated_as_one_text_and_the_tag_kept_on_them():
    data = b"WEBVTT\n\n00:01.000 --> 00:02.000\n<i>Some italic</i> and normal text.\n"
    document = subtitles.read_vtt(data, "a.vtt")
    recording = Recording()
    out, report = translate_segments(
        document.segments, recording.translate, document.escape, "en", recording.align
    )
    assert recording.aligned == ["Some italic and normal text."]
    assert report.whole == 1 and report.piecewise == 0
    assert b"\n5: TEXT. NORMAL AND <i>ITALIC SOME</i>\n" in document.write(out, "en")


def test_a_word_paragraph_with_links_in_its_sentence_is_translated_as_one_text():
    data = (FIXTURES / "par-hyperlinks.docx").read_bytes()
    document = word.read(data, "par-hyperlinks.docx")
    recording = Recording()
    out, report = translate_segments(
        document.segments, recording.translate, document.escape, "en", recording.align
    )
    sentence = "Three hyperlinks: the first one here, the second one, and the third."
    assert sentence in recording.aligned and report.piecewise == 0
    written = docx.Document(io.BytesIO(document.write(out, "en")))
    (paragraph,) = [p for p in written.paragraphs if p.text.startswith("12:")]
    assert (
        paragraph.text == "12: THIRD. THE AND ONE, SECOND THE HERE, ONE FIRST THE HYPERLINKS: THREE"
    )
    assert [link.text for link in paragraph.hyperlinks] == ["THIRD", "ONE, SECOND", "ONE FIRST THE"]
    before = docx.Document(io.BytesIO(data))
    (source,) = [p for p in before.paragraphs if p.text.startswith("Three")]
    assert [link.address for link in paragraph.hyperlinks] == [
        link.address for link in reversed(source.hyperlinks)
    ]


def test_a_wrap_with_no_linked_words_is_written_piece_by_piece_and_nothing_is_lost():
    data = b"WEBVTT\n\n00:01.000 --> 00:02.000\n<i>Some italic</i> and normal text.\n"
    document = subtitles.read_vtt(data, "a.vtt")
    recording = Recording()
    unlinked = lambda texts: [Aligned(backwards(t).text) for t in texts]  # noqa: E731
    out, report = translate_segments(
        document.segments, recording.translate, document.escape, "en", unlinked
    )
    assert report.piecewise == 1
    assert b"<i>2: ITALIC SOME</i>" in document.write(out, "en")


def test_a_translation_s_pieces_are_linked_by_its_attention_padding_dropped():
    source_tokens = ["<2zh>", "\u2581One", "\u2581link", ".", "</s>"]
    tokens = ["\u2581", "<0xE9>", "<0x93>", "<0xBE>", "\u4e00", "\u3002", "</s>"]  # ▁ 链 一 。
    attention = torch.zeros(7, 8)  # 3 columns of padding, which no row attends to
    for row, column in enumerate([1, 2, 2, 2, 1, 3, 4]):
        attention[row, column] = 1.0
    attention[:, :5] += 0.01
    best = SimpleNamespace(text="\u94fe\u4e00\u3002", tokens=tokens, attention=attention)
    translation = SimpleNamespace(
        source="One link.", source_tokens=source_tokens, candidates=[best], error=None
    )
    found = aligned(translation)
    assert found is not None and found.text == "\u94fe\u4e00\u3002"
    assert found.targets(4, 8) == [(0, 1)]  # "link" → 链, spelled in three bytes
    assert found.place(0, 3, []) == (1, 2)  # "One" → 一
    assert found.place(0, 3, [(1, 2)]) is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BLOCK.map(lambda block: block + "\n"))
def test_generated_markdown_placed_by_alignment_keeps_its_structure(text):
    document = markdown.read(text.encode(), "generated.md")
    recording = Recording()
    out, report = translate_segments(
        document.segments, recording.translate, document.escape, "en", recording.align
    )
    assert report.failed == 0
    assert kept(document.write(out, "en").decode()) == kept(text)
    assert all(plain(s) in recording.asked for s in document.segments if plain(s))

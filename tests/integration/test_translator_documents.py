"""``Translator.translate_document`` (``fanyi.Translator``) on the tiny model: a Markdown file by
its path and a Word file as bytes come back translated in their own format, as
``fanyi.documents.translate_document`` translates them."""

import io

import docx
import pytest

from fanyi import Translator
from fanyi.documents import translate_document
from fanyi.documents.markdown import parser
from fanyi.translate import translator as translate
from sample_documents import word_file
from tiny_translator import tiny_model_dir

MARKDOWN = "# Notes\n\nI like tea.\n\n```\nkeep = 1\n```\n\n- Thank you.\n"


@pytest.fixture(scope="module")
def translator(tmp_path_factory) -> Translator:
    return Translator.load(tiny_model_dir(tmp_path_factory), beam=1)


def test_the_translator_is_the_translate_packages_with_documents(translator):
    assert isinstance(translator, translate.Translator)


def test_a_markdown_file_by_its_path(translator, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    done = translator.translate_document(path, to="zh")
    assert (done.format, done.to, done.failed) == ("markdown", "zh", False)
    assert done.data == translate_document(translator, path, to="zh").data
    text = done.data.decode("utf-8")
    kinds = [(t.type, t.tag) for t in parser().parse(text) if t.type != "inline"]
    assert kinds == [(t.type, t.tag) for t in parser().parse(MARKDOWN) if t.type != "inline"]
    assert "```\nkeep = 1\n```" in text and "I like tea." not in text


def test_a_word_file_as_bytes(translator):
    source = word_file()
    done = translator.translate_document(source, "docx", "zh")
    assert done.format == "docx" and done.report.segments == 3
    assert done.data == translate_document(translator, source, "docx", "zh").data
    before = [p.text for p in docx.Document(io.BytesIO(source)).paragraphs]
    after = [p.text for p in docx.Document(io.BytesIO(done.data)).paragraphs]
    assert len(after) == len(before)
    assert all(new and new != old for old, new in zip(before, after, strict=True))

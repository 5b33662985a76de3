"""``POST /translate/document`` and ``fanyi.documents.translate_document`` on the tiny model: a
Markdown file and a Word file come back translated in their own format, with their content type,
a name and the report; too large → 413, a format fanyi does not read → 415, a file that does not
parse → 422."""

import asyncio
import io
import json
from pathlib import Path

import docx
import httpx
import pytest

from fanyi.documents import translate_document
from fanyi.documents.markdown import parser
from fanyi.serve.app import create_app
from fanyi.serve.limits import Limits
from fanyi.translate.translator import Translator
from tiny_translator import tiny_model_dir

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "documents"
MARKDOWN = "# Notes\n\nI like tea.\n\n```\nkeep = 1\n```\n\nSee <https://example.com>.\n"
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture(scope="module")
def translator(tmp_path_factory) -> Translator:
    return Translator.load(tiny_model_dir(tmp_path_factory), beam=1)


@pytest.fixture(scope="module")
def app(translator):
    return create_app(translator, Limits(max_body=200_000))


def upload(app, name: str, data: bytes, **fields: str) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            files = {"file": (name, data, "application/octet-stream")}
            return await client.post("/translate/document", files=files, data=fields)

    return asyncio.run(send())


def blocks(text: str) -> list[tuple]:
    return [(t.type, t.tag) for t in parser().parse(text) if t.type != "inline"]


def test_markdown_comes_back_translated_in_its_own_format(app):
    answer = upload(app, "notes.md", MARKDOWN.encode(), to="zh")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/markdown")
    assert 'filename="notes.zh.md"' in answer.headers["content-disposition"]
    report = json.loads(answer.headers["x-fanyi-report"])
    assert report["segments"] == report["whole"] + report["piecewise"] + report["no_words"]
    assert blocks(answer.text) == blocks(MARKDOWN)
    assert "```\nkeep = 1\n```" in answer.text and "https://example.com" in answer.text


def test_word_comes_back_as_word(app):
    source = (FIXTURES / "par-hyperlinks.docx").read_bytes()
    answer = upload(app, "链接.docx", source, to="zh")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == DOCX_TYPE
    assert "filename*=UTF-8''%E9%93%BE%E6%8E%A5.zh.docx" in answer.headers["content-disposition"]
    before = docx.Document(io.BytesIO(source))
    after = docx.Document(io.BytesIO(answer.content))
    assert len(after.paragraphs) == len(before.paragraphs)


@pytest.mark.parametrize(
    ("name", "data", "fields", "status"),
    [
        ("big.md", b"a" * 300_000, {}, 413),
        ("picture.png", b"\x89PNG\r\n", {}, 415),
        ("notes.md", b"# Hi\n", {"format": "pdf"}, 415),
        ("broken.docx", b"not a zip file", {}, 422),
        ("latin1.md", "caf\xe9\n".encode("latin-1"), {}, 422),
        ("notes.md", b"# Hi\n", {"to": "xx-nothing"}, 422),
    ],
)
def test_what_cannot_be_taken_is_refused_with_its_reason(app, name, data, fields, status):
    answer = upload(app, name, data, **fields)
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]


def test_a_document_not_translated_in_time_is_503(translator):
    hurried = create_app(translator, Limits(timeout=0.001))
    answer = upload(hurried, "notes.md", (MARKDOWN * 20).encode(), to="zh")
    assert answer.status_code == 503 and "within" in answer.json()["detail"]


def test_a_request_without_a_file_is_422(app):
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post("/translate/document", data={"to": "zh"})

    assert asyncio.run(send()).status_code == 422


def test_the_api_translates_a_path_or_bytes_alike(translator, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    from_path = translate_document(translator, path, to="zh")
    from_bytes = translate_document(translator, MARKDOWN.encode(), "markdown", "zh")
    assert from_path.data == from_bytes.data and from_path.format == "markdown"
    assert from_path.to == "zh" and not from_path.failed
    assert from_path.summary("out.md").startswith("out.md: markdown into zh: ")
    with pytest.raises(ValueError, match="needs its format"):
        translate_document(translator, b"# Hi\n")


@pytest.mark.parametrize(
    "name", ["a.md", "a.html", "a.srt", "a.vtt", "a.json", "a.xlf", "a.docx", "a.txt"]
)
@pytest.mark.parametrize("data", [b"\xff\xfe\x00<", b"<a><b>{x} 1\n00:00 --> ]", b"PK\x03\x04"])
def test_no_file_of_any_format_is_a_500(app, name, data):
    assert upload(app, name, data, to="zh").status_code in (200, 422)

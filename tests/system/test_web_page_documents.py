"""The web page's document upload in headless Chromium: a Markdown, Word or gettext file chosen
or dropped is posted to /translate/document and offered back for download, byte for byte what
``fanyi.documents.translate_document`` gives; a file fanyi does not read shows the server's
reason. Required in CI (``CI`` set); skipped elsewhere without Chromium."""

import io
import os
from pathlib import Path

import docx
import polib
import pytest
from playwright import sync_api

from fanyi import Translator
from fanyi.documents import translate_document
from fanyi.serve import create_app
from sample_documents import word_file
from tiny_translator import running_server, tiny_model_dir

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
MARKDOWN = "# Notes\n\nI like tea.\n\n- one cup\n- `two = 2`\n"
CATALOGUE = 'msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n\nmsgid "I like tea."\nmsgstr ""\n'
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file() and not os.environ.get("CI"),
    reason=f"chromium not installed at {CHROMIUM}: sudo apt-get install chromium (CI: required)",
)

DROP = """([name, text]) => {
  const files = new DataTransfer();
  files.items.add(new File([text], name, { type: "text/markdown" }));
  const zone = document.getElementById("drop");
  zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: files, bubbles: true }));
  zone.dispatchEvent(new DragEvent("drop", { dataTransfer: files, bubbles: true }));
}"""


@pytest.fixture(scope="module")
def translator(tmp_path_factory) -> Translator:
    return Translator.load(tiny_model_dir(tmp_path_factory), beam=2)


@pytest.fixture(scope="module")
def page(translator):
    with running_server(create_app(translator)) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(accept_downloads=True)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_function("document.querySelectorAll('#direction option').length === 3")
        page.select_option("#direction", "zh")
        yield page
        assert not errors
        browser.close()


def downloaded(page, tmp_path: Path) -> tuple[str, bytes]:
    """The name and bytes of the translation the page offers."""
    page.wait_for_selector("#download:not([hidden])")
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "saved"
    download.value.save_as(saved)
    return download.value.suggested_filename, saved.read_bytes()


def test_a_chosen_markdown_file_comes_back_for_download(page, translator, tmp_path):
    expected = translate_document(translator, MARKDOWN.encode(), "markdown", "zh").data
    payload = {"name": "notes.md", "mimeType": "text/markdown", "buffer": MARKDOWN.encode()}
    page.set_input_files("#document", files=[payload])
    name, data = downloaded(page, tmp_path)
    assert (name, data) == ("notes.zh.md", expected)


def test_a_dropped_file_is_translated_too(page, translator, tmp_path):
    expected = translate_document(translator, MARKDOWN.encode(), "markdown", "zh").data
    page.evaluate("document.getElementById('download').hidden = true")
    page.evaluate(DROP, ["笔记.md", MARKDOWN])
    name, data = downloaded(page, tmp_path)
    assert (name, data) == ("笔记.zh.md", expected)


def test_a_chosen_word_file_comes_back_translated(page, translator, tmp_path):
    source = word_file()
    expected = translate_document(translator, source, "docx", "zh").data
    page.evaluate("document.getElementById('download').hidden = true")
    page.set_input_files(
        "#document", files=[{"name": "notes.docx", "mimeType": DOCX_TYPE, "buffer": source}]
    )
    name, data = downloaded(page, tmp_path)
    assert (name, data) == ("notes.zh.docx", expected)
    before = [p.text for p in docx.Document(io.BytesIO(source)).paragraphs]
    after = [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]
    assert len(after) == len(before) == 3
    assert all(new and new != old for old, new in zip(before, after, strict=True))


def test_a_chosen_catalogue_comes_back_filled(page, translator, tmp_path):
    source = CATALOGUE.encode()
    expected = translate_document(translator, source, "po", "zh").data
    page.evaluate("document.getElementById('download').hidden = true")
    payload = {"name": "messages.po", "mimeType": "text/x-gettext-translation", "buffer": source}
    page.set_input_files("#document", files=[payload])
    name, data = downloaded(page, tmp_path)
    assert (name, data) == ("messages.zh.po", expected)
    assert polib.pofile(data.decode()).find("I like tea.").fuzzy


def test_a_format_fanyi_does_not_read_shows_why(page):
    payload = {"name": "picture.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n"}
    page.set_input_files("#document", files=[payload])
    page.wait_for_function(
        "document.getElementById('document-status').textContent.includes('error 415')"
    )
    assert ".png" in page.text_content("#document-status")
    assert page.is_hidden("#download")

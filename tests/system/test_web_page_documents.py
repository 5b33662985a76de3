"""The web page's document upload in headless Chromium: a Markdown file chosen or dropped is
posted to /translate/document and offered back for download, byte for byte what
``fanyi.documents.translate_document`` gives; a file fanyi does not read shows the server's
reason. Required in CI (``CI`` set); skipped elsewhere without Chromium."""

import os
from pathlib import Path

import pytest
from playwright import sync_api

from fanyi import Translator
from fanyi.documents import translate_document
from fanyi.serve import create_app
from tiny_translator import running_server, tiny_model_dir

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
MARKDOWN = "# Notes\n\nI like tea.\n\n- one cup\n- `two = 2`\n"

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


def test_a_format_fanyi_does_not_read_shows_why(page):
    payload = {"name": "picture.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n"}
    page.set_input_files("#document", files=[payload])
    page.wait_for_function(
        "document.getElementById('document-status').textContent.includes('error 415')"
    )
    assert ".png" in page.text_content("#document-status")
    assert page.is_hidden("#download")

"""The web page in headless Chromium: its languages and beam from /health, type a sentence, press
Translate, see the translation and the attention heatmap (drawn from the API's JSON, nothing
fetched from outside); an error is shown, never thrown. Required in CI (``CI`` set), where
.ci/apt-packages installs Chromium; skipped elsewhere without it."""

import os
from pathlib import Path

import pytest
from playwright import sync_api

from fanyi import Translator
from fanyi.serve import create_app
from tiny_translator import running_server, tiny_model_dir

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(  # CI installs chromium (.ci/apt-packages): there it must run
    not CHROMIUM.is_file() and not os.environ.get("CI"),
    reason=f"chromium not installed at {CHROMIUM}: sudo apt-get install chromium (CI: required)",
)

COLOURED = """canvas => {
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i + 2] - data[i] > 20) coloured++;
  return coloured;
}"""


@pytest.fixture(scope="module")
def translator(tmp_path_factory) -> Translator:
    return Translator.load(tiny_model_dir(tmp_path_factory), beam=2)


def test_translate_and_see_the_heatmap(translator, tmp_path):
    sentence = "我很好。"
    expected = translator.translate([sentence], beam=2, attention=True)[0]
    with running_server(create_app(translator)) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_function("document.querySelectorAll('#direction option').length === 3")
        options = page.eval_on_selector_all("#direction option", "os => os.map(o => o.value)")
        assert options == ["", "en", "zh"]  # detect, then the model's targets from /health
        assert page.input_value("#beam") == "2"  # the server's default beam
        page.fill("#source", sentence)
        page.click("#translate")
        page.wait_for_function("document.getElementById('heatmap').dataset.rows !== undefined")
        assert page.text_content("#translation") == expected.text
        heatmap = page.locator("#heatmap")
        rows, cols = heatmap.get_attribute("data-rows"), heatmap.get_attribute("data-cols")
        assert (int(rows), int(cols)) == (
            len(expected.candidates[0].tokens),
            len(expected.source_tokens),
        )
        assert heatmap.evaluate(COLOURED) > 100  # cells were drawn
        shot = tmp_path / "web_page.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert not errors
        browser.close()
    assert all(r.startswith(url) for r in requests), requests  # no CDN, nothing outside


def translated_on_the_page(translator, fill) -> str:
    """The translation the page shows once ``fill(page)`` has filled in its form."""
    with running_server(create_app(translator)) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("document.querySelectorAll('#direction option').length === 3")
        fill(page)
        page.click("#translate")
        page.wait_for_function("document.getElementById('translation').textContent !== ''")
        shown = page.text_content("#translation")
        browser.close()
    return shown


def test_the_translation_starts_as_asked(translator):
    sentence, prefix = "我很好。", "I"
    expected = translator.translate([sentence], beam=2, target_prefix=prefix)[0].text
    assert expected.startswith(prefix)

    def fill(page):
        page.fill("#source", sentence)
        page.fill("#prefix", f" {prefix} ")  # surrounding spaces are not part of it

    assert translated_on_the_page(translator, fill) == expected


def test_chinese_in_the_characters_asked_for(translator):
    sentence, prefix = "Tom is here.", "这个软件"
    expected = translator.translate(
        [sentence], to="zh", beam=2, target_prefix=prefix, chinese_script="tw"
    )[0].text
    assert expected.startswith("這個軟體"), expected  # Taiwan's characters and words

    def fill(page):
        page.fill("#source", sentence)
        page.select_option("#direction", "zh")
        page.select_option("#chinese", "tw")
        page.fill("#prefix", prefix)

    assert translated_on_the_page(translator, fill) == expected


def test_errors_are_shown_not_thrown(translator):
    with running_server(create_app(translator)) as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.fill("#source", "好" * 1001)  # over the per-text limit: that text's error
        page.click("#translate")
        page.wait_for_function("document.getElementById('status').textContent.includes('error')")
        assert "characters" in page.text_content("#status")  # the server's reason, shown
        assert page.text_content("#translation") == "" and not errors
        browser.close()

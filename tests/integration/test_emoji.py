"""Emoji and characters beyond Unicode's first plane come back as written (never U+FFFD), from
the Python API, the command line and HTTP, on the tiny model (whose words are gibberish: only
the copied characters are compared)."""

import json
import subprocess
import sys

import pytest

from fanyi import Translator
from fanyi.serve import Limits, create_app
from tiny_translator import post, tiny_model_dir

FAMILY, FLAG = "👩\u200d👩\u200d👧", "🇨🇳"
TEXTS = {
    "我很高兴😀。": ["😀"],
    "𠀀是一个字，𪚥也是。": ["𠀀", "𪚥"],
    f"The flag {FLAG} is red.": [FLAG],
    f"{FAMILY} is a family.": [FAMILY],
    "Thanks 🙏🙏 and ❤\ufe0f": ["🙏🙏", "❤\ufe0f"],
    "😀": ["😀"],
}


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def translator(model) -> Translator:
    return Translator.load(model, dtype="fp32")


def kept(translation: str, runs: list[str]) -> bool:
    return "\ufffd" not in translation and all(run in translation for run in runs)


def test_the_python_api_copies_them_through(translator):
    translations = translator(list(TEXTS))
    assert [kept(t, runs) for t, runs in zip(translations, TEXTS.values(), strict=True)] == [
        True
    ] * len(TEXTS), translations
    assert translator("😀 😀", to="en") == "😀 😀"


def test_http_copies_them_through(translator):
    response = post(create_app(translator, Limits()), {"text": list(TEXTS), "beam": 2})
    assert response.status_code == 200, response.text
    got = [r["text"] for r in response.json()["translations"]]
    assert all(kept(t, runs) for t, runs in zip(got, TEXTS.values(), strict=True)), got


def test_the_command_line_copies_them_through(model):
    command = [sys.executable, "-m", "fanyi", "translate", "-m", str(model), "--threads", "1"]
    lines = "".join(f"{text}\n" for text in TEXTS)
    done = subprocess.run(
        [*command, "--format", "jsonl"], input=lines.encode(), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.decode().splitlines()]
    got = [r["translation"] for r in rows]
    assert all(kept(t, runs) for t, runs in zip(got, TEXTS.values(), strict=True)), got


def test_off_the_model_reads_them(translator):
    (on,) = translator.translate(["我很高兴😀。"], to="en")
    (off,) = translator.translate(["我很高兴😀。"], to="en", keep_emoji=False)
    assert "<0xF0>" in off.source_tokens and "<0xF0>" not in on.source_tokens

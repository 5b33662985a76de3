"""A model between two languages of one script: German ⇄ English, trained here for a few steps on
the first Multi30k pairs. Nothing is Chinese-only: the target is given with ``--to`` (the script
cannot tell German from English), tagged, and answered on the command line and over HTTP."""

import asyncio
import subprocess
import sys

import httpx
import pytest

from fanyi import Translator
from fanyi.serve import create_app
from tiny_translator import tiny_de_en_model_dir

pytestmark = pytest.mark.slow  # trains a de-en model and runs the CLI


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_de_en_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def translator(model_dir) -> Translator:
    return Translator.load(model_dir, beam=2)


def test_both_directions_are_tagged_and_sentences_joined_with_spaces(translator):
    assert translator.targets == ["en", "de"]
    german, english = translator.translate(["Ein Hund läuft.", "A dog runs."], to="de")
    assert german.source_tokens[0] == english.source_tokens[0] == "<2de>"
    (to_english,) = translator.translate(["Ein Hund läuft."], to="en")
    assert to_english.to == "en" and to_english.source_tokens[0] == "<2en>"
    one, two = translator(["Ein Hund läuft.", "Eine Frau singt."], to="en")
    assert translator(["Ein Hund läuft. Eine Frau singt."], to="en") == [f"{one} {two}"]


def test_the_direction_must_be_given(translator):
    with pytest.raises(ValueError, match="share a script"):
        translator(["Ein Hund läuft."])
    with pytest.raises(ValueError, match=r"into en \(en-US, en-GB, eng\) and de, not 'zh'"):
        translator(["Ein Hund läuft."], to="zh")


def test_the_command_line_translates_into_german(model_dir, translator):
    command = [sys.executable, "-m", "fanyi", "translate", "-m", str(model_dir), "--threads", "1"]
    lines = "A dog runs.\nTwo men talk. A woman sings.\n"
    done = subprocess.run(
        [*command, "--to", "de", "--beam", "2"], input=lines.encode(), capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()
    expected = translator(lines.splitlines(), to="de")
    assert done.stdout.decode("utf-8").splitlines() == expected
    undirected = subprocess.run(command, input=lines.encode(), capture_output=True)
    assert undirected.returncode == 2 and "share a script" in undirected.stderr.decode()


def test_http_translates_into_german_and_says_so(translator):
    app = create_app(translator)

    async def call() -> tuple[httpx.Response, httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            health = await client.get("/health")
            german = await client.post("/translate", json={"text": ["A dog runs."], "to": "de"})
            undirected = await client.post("/translate", json={"text": ["A dog runs."]})
            return health, german, undirected

    health, german, undirected = asyncio.run(call())
    assert health.json()["targets"] == ["en", "de"]
    (result,) = german.json()["translations"]
    assert result["to"] == "de" and result["text"] == translator(["A dog runs."], to="de")[0]
    (unknown,) = undirected.json()["translations"]  # that text alone is not translated
    assert undirected.status_code == 200 and "share a script" in unknown["error"]

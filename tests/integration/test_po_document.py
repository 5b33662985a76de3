"""A gettext catalogue as one document format among the others, on the tiny model: ``fanyi
translate FILE.po`` writes what ``fanyi po`` writes, and ``POST /translate/document`` gives back
what ``translate_document`` does, a catalogue polib reads with its untranslated entries filled."""

import asyncio
import json
from pathlib import Path

import httpx
import polib
import pytest

from fanyi.cli import main
from fanyi.documents import translate_document
from fanyi.serve.app import create_app
from fanyi.translate.translator import Translator
from tiny_translator import tiny_model_dir

SAMPLE = Path(__file__).parents[1] / "fixtures" / "data" / "python-docs" / "sample.po"


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return str(tiny_model_dir(tmp_path_factory))


def test_fanyi_translate_writes_a_catalogue_as_fanyi_po_does(model_dir, tmp_path, capsys):
    common = ["-m", model_dir, "--threads", "1", "--dtype", "fp32"]
    assert main(["po", str(SAMPLE), "-o", str(tmp_path / "po.po"), *common]) == 0
    assert main(["translate", str(SAMPLE), "-o", str(tmp_path / "doc.po"), *common]) == 0
    assert "po into zh" in capsys.readouterr().err  # the header's Language
    assert (tmp_path / "doc.po").read_bytes() == (tmp_path / "po.po").read_bytes()


def test_an_uploaded_catalogue_comes_back_filled(model_dir):
    translator = Translator.load(model_dir, beam=1)
    data = SAMPLE.read_bytes()

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app(translator))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            files = {"file": ("functions.po", data, "application/octet-stream")}
            return await client.post("/translate/document", files=files)

    answer = asyncio.run(send())
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/x-gettext-translation")
    assert 'filename="functions.zh.po"' in answer.headers["content-disposition"]
    assert json.loads(answer.headers["x-fanyi-report"])["segments"] == 4
    assert answer.content == translate_document(translator, data, name="functions.po").data
    before, after = polib.pofile(data.decode()), polib.pofile(answer.text)
    assert [e.msgid for e in after] == [e.msgid for e in before]
    assert sum(e.fuzzy for e in after) > sum(e.fuzzy for e in before)

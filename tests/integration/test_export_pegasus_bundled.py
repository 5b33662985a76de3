"""The bundled model (``zh-en-general``: pre-norm, interleaved sinusoids, tied embeddings, 6 + 3
layers, stored as int8 rows and read back as float32) exported to Hugging Face is Pegasus, and
transformers' greedy ``generate`` gives fanyi's fp32 greedy translations, token for token, of ten
held-out python-docs pairs each way; ``fanyi convert`` reads the export back with the same
translations; the model card's code runs as it stands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from transformers import AutoTokenizer, PegasusForConditionalGeneration

from conftest import FIXTURE_CORPORA
from fanyi.cli import main
from fanyi.decode import decode
from fanyi.decode.options import SearchOptions
from fanyi.model_dir import load_model
from fanyi.translate.model_names import BUNDLED
from fanyi.translate.translator import Translator
from hf_reference import generate

pytestmark = [
    pytest.mark.slow,  # exports the bundled model and decodes 20 lines three ways
    pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}"),
]
TEST_PAIRS = FIXTURE_CORPORA / "python-docs" / "test.tsv"  # its first 37 lines never trained on
GREEDY = SearchOptions(beam=1, length_penalty=0.0, target_script_only=False)  # the model alone


def held_out_lines(n: int = 10) -> list[tuple[str, str]]:
    """(text, target language): the first ``n`` held-out pairs of 10-90 characters, each way."""
    rows = [line.split("\t") for line in TEST_PAIRS.read_text(encoding="utf-8").splitlines()]
    pairs = [(en, zh) for en, zh, _ in rows[:37] if 10 <= len(en) <= 90][:n]
    return [(zh, "en") for _, zh in pairs] + [(en, "zh") for en, _ in pairs]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """The export, by the bundled model's name as the first argument."""
    out = tmp_path_factory.mktemp("pegasus") / "zh-en-general-hf"
    assert main(["export", BUNDLED.name, "--format", "huggingface", "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load(BUNDLED, dtype="fp32", beam=1)


@pytest.fixture(scope="module")
def fanyi_greedy(translator) -> tuple[list[list[int]], list[list[int]]]:
    """The sources' ids and fanyi's greedy translations of them (one at a time)."""
    sources = [translator.text.ids(text, to) for text, to in held_out_lines()]
    model = translator.engine.model
    return sources, [decode(model, torch.tensor([ids]), GREEDY)[0][0].tokens for ids in sources]


def test_the_bundled_model_exports_as_pegasus(exported):
    config = json.loads((exported / "config.json").read_text(encoding="utf-8"))
    assert config["model_type"] == "pegasus" and config["scale_embedding"] is True
    assert (config["encoder_layers"], config["decoder_layers"]) == (6, 3)


def test_generate_translates_as_fanyi(exported, translator, fanyi_greedy):
    """Greedy ``generate`` (fanyi's length limit, ``tests/hf_reference.py``) gives fanyi's ids;
    AutoTokenizer reads the normalised text as fanyi does and writes the same translations."""
    sources, ours = fanyi_greedy
    pegasus = PegasusForConditionalGeneration.from_pretrained(exported).eval()
    tokenizer = AutoTokenizer.from_pretrained(exported)
    lines = held_out_lines()
    normalised = [translator.text.src_vocab.decode(ids[1:]) for ids in sources]
    marked = [f">>{to}<< {text}" for text, (_, to) in zip(normalised, lines, strict=True)]
    assert [tokenizer(text).input_ids for text in marked] == sources
    theirs = [rows[0] for rows in generate(pegasus, sources, 1)]
    assert theirs == ours
    vocab = translator.text.tgt_vocab
    texts = [tokenizer.decode(ids, skip_special_tokens=True) for ids in theirs]
    assert texts == [vocab.decode(ids) for ids in ours]
    assert sum(text.isascii() for text in texts) == len(lines) // 2  # half into English


def test_convert_reads_the_export_back_both_ways(exported, fanyi_greedy, tmp_path):
    assert main(["convert", str(exported), "-o", str(tmp_path / "back")]) == 0
    back, checkpoint = load_model(tmp_path / "back")
    c = checkpoint.model
    assert (c.norm, c.has_final_norm, c.sinusoid_layout) == ("pre", True, "concat")
    sources, ours = fanyi_greedy
    again = [decode(back, torch.tensor([ids]), GREEDY, c.bos_id)[0][0].tokens for ids in sources]
    assert again == ours


def test_the_model_cards_code_translates(exported, capsys):
    """The card's code (AutoTokenizer, PegasusForConditionalGeneration, ``preprocess.py`` for
    Traditional script), run as it stands."""
    card = (exported / "README.md").read_text(encoding="utf-8")
    code = card.split("```python\n", 1)[1].split("\n```", 1)[0]
    assert "PegasusForConditionalGeneration.from_pretrained(MODEL)" in code
    exec(code, {})
    assert capsys.readouterr().out == "What's your name?\n"

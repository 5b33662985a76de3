"""An int8-stored model directory (``fanyi average --dtype int8``) on the roads that read one: it
translates as its fp32 source, its CTranslate2 and Hugging Face exports decode as it does, and
the CLI refuses an unknown storage format in one line."""

import shutil

import pytest
import torch
from safetensors import safe_open
from safetensors.torch import save_file
from transformers import MarianMTModel

from fanyi import Translator
from fanyi.cli import main
from fanyi.decode import decode
from fanyi.filenames import MODEL_FILE
from fanyi.model import ModelConfig
from fanyi.model_dir import average_run
from fanyi.train import train
from hf_reference import generate
from tiny_run import tiny_config, word_corpus

pytestmark = pytest.mark.slow  # trains a model for ~15 s
SENTENCES = {"en": ["红猫吃鱼", "大狗吃红鱼", "猫狗", "鱼吃大猫红狗", "狗吃"]}
MODEL = ModelConfig(d_model=32, d_ff=64, h=2, N_enc=1, N_dec=1)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """{dtype: directory} of a word-for-word model stored as fp32 and as int8. It trains for
    1,000 steps (~15 s): a model trained for seconds repeats one piece, whatever its weights."""
    root = tmp_path_factory.mktemp("int8")
    train(tiny_config(word_corpus(root), root / "run", model=MODEL))
    return {d: average_run(root / "run", 1, root / d, dtype=d) for d in ("fp32", "int8")}


def results(directory, engine="fanyi"):
    """The greedy fp32 translations of SENTENCES: {target: [Translation]}."""
    translator = Translator.load(directory, engine=engine, dtype="fp32", beam=1)
    return {to: translator.translate(texts, to=to) for to, texts in SENTENCES.items()}


def test_int8_translates_with_the_tokens_of_its_fp32_source(stored):
    """Same tokens (the rounding moves a log-probability by ~0.01 per token; the margins of
    these words are wider), log-probabilities within 0.03 per token."""
    source, int8 = results(stored["fp32"]), results(stored["int8"])
    for to in SENTENCES:
        for a, b in zip(source[to], int8[to], strict=True):
            a, b = a.candidates[0], b.candidates[0]
            assert a.text and a.tokens == b.tokens
            assert abs(a.log_prob - b.log_prob) < 0.03 * len(a.tokens)


def test_ctranslate2_export_of_int8_translates_as_it(stored, tmp_path):
    out = tmp_path / "ct2"
    assert main(["export", str(stored["int8"]), "--format", "ctranslate2", "-o", str(out)]) == 0
    ours, theirs = results(stored["int8"]), results(out, engine="ctranslate2")
    for to in SENTENCES:
        assert [r.text for r in theirs[to]] == [r.text for r in ours[to]]
        for a, b in zip(ours[to], theirs[to], strict=True):
            assert abs(a.candidates[0].log_prob - b.candidates[0].log_prob) < 1e-3


def test_huggingface_export_of_int8_generates_as_it(stored, tmp_path):
    out = tmp_path / "hf"
    assert main(["export", str(stored["int8"]), "--format", "huggingface", "-o", str(out)]) == 0
    translator = Translator.load(stored["int8"], dtype="fp32", beam=1)
    sources = [translator.text.ids(s, to) for to, texts in SENTENCES.items() for s in texts]
    marian = MarianMTModel.from_pretrained(out).eval()
    theirs = [rows[0] for rows in generate(marian, sources, 1)]
    model, options = translator.engine.model, translator.options
    ours = [decode(model, torch.tensor([ids]), options)[0][0].tokens for ids in sources]
    assert ours == theirs


def test_an_unknown_storage_format_is_one_line(stored, tmp_path, capsys):
    broken = shutil.copytree(stored["int8"], tmp_path / "broken")
    with safe_open(str(broken / MODEL_FILE), "pt") as f:
        metadata, tensors = f.metadata(), {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118
    save_file(tensors, broken / MODEL_FILE, metadata=metadata | {"quantized": "nf4"})
    assert main(["translate", "-m", str(broken), "--threads", "1", "--text", "猫"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "unknown weight quantization 'nf4'" in err and "'int8-rows'" in err

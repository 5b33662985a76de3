"""``fanyi convert`` trusts nothing in a MarianMT directory: a config, vocabulary or weights file
that is malformed, out of bounds or disagrees with the weights gives one clear line and rc 2,
before anything of the config's size is built."""

from __future__ import annotations

import json
import pickle
import shutil

import pytest

from fanyi.cli import main
from tiny_marian import build


@pytest.fixture(scope="module")
def marian(tmp_path_factory):
    directory = tmp_path_factory.mktemp("checks") / "opus-mt-xx-en"
    build(directory, "relu")
    return directory


@pytest.fixture
def broken(marian, tmp_path):
    """A copy of a tiny MarianMT directory, to break."""
    return shutil.copytree(marian, tmp_path / "opus-mt-xx-en")


def refused(directory, capsys) -> str:
    """The one-line error of converting ``directory`` (which must fail with rc 2)."""
    out = directory.parent / "out"
    assert main(["convert", str(directory), "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert "Traceback" not in error and len(error.splitlines()) == 1, error
    assert not out.exists()
    return error


def edit_config(directory, **changes) -> None:
    config = json.loads((directory / "config.json").read_text())
    (directory / "config.json").write_text(json.dumps({**config, **changes}))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"d_model": "abc"}, "d_model must be an integer from 1 to 16384, not 'abc'"),
        ({"d_model": -8}, "d_model must be an integer from 1 to 16384, not -8"),
        ({"encoder_attention_heads": 0, "decoder_attention_heads": 0}, "encoder_attention_heads"),
        ({"d_model": 30}, "d_model=30 is not divisible by h=4"),
        (
            {"vocab_size": 50_000_000, "decoder_vocab_size": 50_000_000, "d_model": 4096},
            "vocab_size",
        ),
        ({"encoder_layers": 1000}, "encoder_layers must be an integer from 0 to 256, not 1000"),
        ({"max_position_embeddings": 10**9}, "max_position_embeddings must be an integer"),
        ({"dropout": "high"}, "dropout must be a number in [0, 1)"),
        ({"pad_token_id": 10**6}, "pad_token_id must be an integer from 0 to"),
        ({"activation_function": ["relu"]}, "activation_function ['relu']"),
    ],
)
def test_a_config_out_of_bounds_is_refused_by_key(broken, capsys, changes, message):
    edit_config(broken, **changes)
    assert message in refused(broken, capsys)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (  # 2M x 4096 floats (32 GB) asked for, 108 x 32 stored: refused before anything is built
            {"vocab_size": 2_000_000, "decoder_vocab_size": 2_000_000, "d_model": 4096},
            "(108, 32) in the file, (2000000, 4096) by the config",
        ),
        ({"encoder_layers": 200}, "the MarianMT weights lack model.encoder.layers.2."),
        ({"encoder_ffn_dim": 60000, "decoder_ffn_dim": 60000}, "(64, 32) in the file, (60000, 32)"),
    ],
)
def test_a_config_the_weights_do_not_match_is_refused_before_building(
    broken, capsys, changes, message
):
    edit_config(broken, **changes)
    assert message in refused(broken, capsys)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("config.json", "[]", "config.json: expected a JSON object, not list"),
        ("config.json", "{", "config.json: not valid JSON"),
        ("vocab.json", "[1]", "vocab.json: expected a JSON object, not list"),
        ("vocab.json", '{"</s>": 0, "<unk>": "1"}', "vocab.json: expected an object of piece"),
        ("tokenizer_config.json", '"x"', "tokenizer_config.json: expected a JSON object"),
        ("source.spm", "garbage", "source.spm: not a SentencePiece model"),
        ("target.spm", "", "target.spm: not a SentencePiece model"),
    ],
)
def test_a_malformed_file_is_refused_by_name(broken, capsys, name, content, message):
    (broken / name).write_text(content)
    assert message in refused(broken, capsys)


def test_a_pickle_named_model_safetensors_is_refused_unread(broken, capsys):
    (broken / "model.safetensors").write_bytes(pickle.dumps({"x": 1}, protocol=4))
    assert "pickle/torch.save file, not safetensors" in refused(broken, capsys)


def test_a_truncated_safetensors_file_is_refused(broken, capsys):
    data = (broken / "model.safetensors").read_bytes()
    (broken / "model.safetensors").write_bytes(data[: len(data) // 2])
    assert "not a readable safetensors file" in refused(broken, capsys)

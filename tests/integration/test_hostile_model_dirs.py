"""Model and run directories from strangers, read as the input policy says: a config that
declares huge dimensions is refused before anything of its size is allocated, a config.yaml or a
vocabulary that is a FIFO or a link to a device is refused without waiting or reading, JSON
nested without end is one line, and a link inside a run directory never leads outside it."""

from __future__ import annotations

import json
import os
import shutil

import pytest
import yaml

from fanyi.cli import main
from fanyi.filenames import CONFIG_FILE, INDEX_FILE
from fanyi.model_dir import load_model, resolve
from tiny_marian import build
from tiny_translator import tiny_model_dir


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture
def copy(model_dir, tmp_path):
    """A copy of the tiny model directory, to break."""
    return shutil.copytree(model_dir, tmp_path / "model", ignore=shutil.ignore_patterns("train*"))


def translate(capsys, model) -> str:
    """``fanyi translate -m MODEL``'s one line of error."""
    assert main(["translate", "--threads", "1", "--text", "你好", "-m", str(model)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def with_model(copy, **sizes) -> None:
    sections = yaml.safe_load((copy / CONFIG_FILE).read_text(encoding="utf-8"))
    sections["model"].update(sizes)
    (copy / CONFIG_FILE).write_text(yaml.safe_dump(sections), encoding="utf-8")


@pytest.mark.parametrize("key", ["d_ff", "d_model", "max_len", "N_dec", "src_vocab_size"])
def test_huge_dimensions_are_refused_before_anything_is_built(copy, capsys, key):
    vocab = ("src_vocab_size", "tgt_vocab_size") if key == "src_vocab_size" else (key,)
    with_model(copy, **dict.fromkeys(vocab, 1 << 40), h=1)
    assert f"model {key} {1 << 40} is above" in translate(capsys, copy)


def test_dimensions_the_weights_do_not_have_are_checked_on_meta_tensors(copy, capsys, monkeypatch):
    with_model(copy, d_ff=1 << 16, N_enc=256, N_dec=256)  # within bounds: 100 GB of floats
    built = []
    monkeypatch.setattr("fanyi.model_dir.build_model", lambda c, **k: built.append(c) or _meta(c))
    err = translate(capsys, copy)
    assert "does not match its model config" in err and "model.safetensors" in err


def _meta(config):
    """The model of ``config`` as the real build_model makes it, on the meta device only."""
    import torch

    from fanyi.model import build_model

    assert torch.get_default_device().type == "meta", "built outside the meta device"
    return build_model(config, initialise=False)


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero"])
@pytest.mark.parametrize("name", [CONFIG_FILE, "spm.model"])
def test_a_file_that_is_no_file_is_refused_without_waiting(copy, capsys, kind, name):
    path = copy / name
    if not path.exists():
        name = yaml.safe_load((copy / CONFIG_FILE).read_text())["vocab"]["src_model"]
        path = copy / name
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    err = translate(capsys, copy)
    assert "not a regular file" in err or "outside the model directory" in err  # /dev/zero


def test_checkpoints_json_nested_without_end_is_one_line(model_dir, tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / INDEX_FILE).write_text("[" * 100_000 + "]" * 100_000)
    assert f"{run / INDEX_FILE}: JSON nested more than" in translate(capsys, run)


def test_a_link_in_a_run_directory_never_leads_outside_it(model_dir, tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / "step-0000001").symlink_to(model_dir, target_is_directory=True)
    index = {"last": "step-0000001", "best": "step-0000001", "kept": ["step-0000001"]}
    (run / INDEX_FILE).write_text(json.dumps(index))
    with pytest.raises(ValueError, match="leads outside the run directory"):
        resolve(run)
    assert "leads outside" in translate(capsys, run)
    assert main(["average", str(run), "--last", "1", "-o", str(tmp_path / "avg")]) == 2
    assert "leads outside" in capsys.readouterr().err


def test_a_model_loads_as_before(model_dir):
    model, checkpoint = load_model(model_dir)
    assert checkpoint.path == model_dir and not any(p.is_meta for p in model.parameters())


def test_convert_reads_a_config_json_nested_without_end_in_one_line(tmp_path, capsys):
    marian = tmp_path / "opus-mt-xx-en"
    build(marian, "relu", eos_bias=3.0)
    (marian / "config.json").write_text("{" + '"a": {' * 50_000 + "}" * 50_001)
    assert main(["convert", str(marian), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "config.json" in err and "nested more than" in err and "Traceback" not in err

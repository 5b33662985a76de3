"""Train a tiny model on a slice of real Tatoeba: it learns, the same seed gives the same curve,
bf16 trains, and a run interrupted and resumed (also by SIGKILL while saving) ends with the same
parameters as an uninterrupted one."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from conftest import corpora
from fanyi import Translator
from fanyi.config import load_yaml, override
from fanyi.data import DataConfig
from fanyi.data.build import prepare
from fanyi.model_dir import load_model, read_index, read_state_dict
from fanyi.scores import score
from fanyi.train import TrainConfig, train

pytestmark = pytest.mark.slow  # trains on real Tatoeba (about 3 minutes)

REPO = Path(__file__).resolve().parents[2]
TINY = load_yaml(TrainConfig, REPO / "configs" / "train" / "tiny.yaml")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """The first 3000 lines of Tatoeba zh-en, prepared once for this module."""
    out = tmp_path_factory.mktemp("data")
    recipe = load_yaml(DataConfig, REPO / "configs" / "data" / "tatoeba-zh-en.yaml")
    prepare(
        override(
            recipe,
            {
                "train": str(corpora() / "tatoeba-cmn-eng" / "cmn.txt"),
                "limit": 3000,
                "dev_size": 100,
                "test_size": 100,
                "vocab_size": 1000,
                "character_coverage": 0.98,
                "out_dir": str(out),
            },
        )
    )
    return out


def _config(data: Path, out: Path, **changes) -> TrainConfig:
    return override(
        TINY, {"data_dir": str(data), "out_dir": str(out), "progress": False, **changes}
    )


def _log(run: Path, kind: str) -> list[dict]:
    lines = (run / "log.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["kind"] == kind]


def _assert_same_parameters(a: Path, b: Path) -> None:
    left, right = read_state_dict(a), read_state_dict(b)
    assert left.keys() == right.keys()
    for name in left:
        assert torch.equal(left[name], right[name]), name


def test_dev_loss_falls_and_the_model_translates(prepared, tmp_path):
    run = train(_config(prepared, tmp_path / "run", max_steps=300, validate_every=100))
    valid = _log(run, "valid")
    assert [r["step"] for r in valid] == [100, 200, 300]
    assert valid[-1]["dev_loss"] < valid[0]["dev_loss"] - 0.3
    _, checkpoint = load_model(run)  # the best checkpoint
    assert checkpoint.info.step == 300 and checkpoint.train["max_steps"] == 300
    sources = (prepared / "dev.src").read_text(encoding="utf-8").splitlines()
    references = (prepared / "dev.tgt").read_text(encoding="utf-8").splitlines()
    hypotheses = Translator.load(run, beam=1)(sources)
    matched = score(hypotheses, [references], "en").chrf
    shuffled = score(hypotheses, [references[1:] + references[:1]], "en").chrf
    assert matched > 1.2 * shuffled  # measured 10.9 against 7.7: translations of their sources


def test_the_same_seed_gives_the_same_loss_curve(prepared, tmp_path):
    curves = []
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        cfg = _config(
            prepared,
            tmp_path / name,
            max_steps=20,
            log_every=2,
            validate_every=20,
            seed=seed,
            valid_bleu=False,
        )
        curves.append([r["loss"] for r in _log(train(cfg), "train")])
    assert curves[0] == curves[1]
    assert curves[0] != curves[2]


def test_bf16_autocast_trains(prepared, tmp_path):
    run = train(
        _config(
            prepared,
            tmp_path / "bf16",
            dtype="bf16",
            max_steps=20,
            validate_every=20,
            log_every=5,
            valid_bleu=False,
        )
    )
    losses = [r["loss"] for r in _log(run, "train")]
    assert all(torch.isfinite(torch.tensor(losses))) and losses[-1] < losses[0]
    model, checkpoint = load_model(run)
    assert checkpoint.info.dtype == "bf16"
    assert model.generator.proj.weight.dtype == torch.float32  # master weights stay fp32


# `fanyi train` whose checkpoints pause for 3 s after writing their weights: a window to kill it
PAUSED_SAVE = """
import sys, time
from safetensors import torch as st
from fanyi import model_dir
from fanyi.cli import main

def save_file(*args, **kwargs):
    st.save_file(*args, **kwargs)
    time.sleep(3)

model_dir.save_file = save_file
sys.exit(main(sys.argv[1:]))
"""

RESUME = {
    "max_steps": 40,
    "validate_every": 20,
    "accumulation": 2,
    "log_every": 5,
    "valid_bleu_sentences": 20,
}


def test_interrupted_and_resumed_equals_uninterrupted(prepared, tmp_path):
    whole = train(_config(prepared, tmp_path / "whole", **RESUME))
    part = _config(prepared, tmp_path / "part", **{**RESUME, "max_steps": 20})
    train(part)
    resumed = train(override(part, {"max_steps": 40}), resume=tmp_path / "part")
    _assert_same_parameters(whole / read_index(whole)["last"], resumed / "step-0000040")
    assert _log(whole, "train") == [
        {**r, "tgt_tokens_per_s": w["tgt_tokens_per_s"]}
        for r, w in zip(_log(resumed, "train"), _log(whole, "train"), strict=True)
    ]
    with pytest.raises(ValueError, match="max_tokens"):
        train(override(part, {"max_tokens": 512}), resume=tmp_path / "part")


def test_sigkill_while_saving_leaves_a_loadable_checkpoint_that_resumes(prepared, tmp_path):
    run = tmp_path / "killed"
    flags = [f"--{k}={v}" for k, v in RESUME.items()]
    arguments = [
        "train",
        "--config",
        str(REPO / "configs" / "train" / "tiny.yaml"),
        f"--data-dir={prepared}",
        f"--out-dir={run}",
        "--progress=false",
        *flags,
    ]
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSED_SAVE, *arguments],
        env={**os.environ, "FANYI_TCMALLOC": "0"},  # no re-exec: the pause must stay in place
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    # the second save, paused half-way in its temporary directory (.step-0000040.XXXX.tmp)
    while not any(run.glob(".step-0000040.*.tmp/model.safetensors")):
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    _, checkpoint = load_model(run)
    assert checkpoint.path.name == "step-0000020"
    assert (
        subprocess.run(
            [sys.executable, "-m", "fanyi", "train", "--resume", str(run), "--progress=false"],
            capture_output=True,
        ).returncode
        == 0
    )
    assert read_index(run)["last"] == "step-0000040"
    whole = train(_config(prepared, tmp_path / "whole", **RESUME))
    _assert_same_parameters(whole / "step-0000040", run / "step-0000040")

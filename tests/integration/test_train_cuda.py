"""The GPU road: training on CUDA from the memory-mapped token shards (and resuming exactly as
on the CPU), its batches prefetched and pinned, its step compiled. Skipped on a machine without
a GPU; nccl DDP is tested in test_train_ddp.py."""

import dataclasses
import math

import pytest
import torch
from test_train_tatoeba import _config, _log, prepared  # noqa: F401  (a module fixture)

from fanyi.data import Batch
from fanyi.model_dir import read_index, read_state_dict
from fanyi.train import train

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
STEPS = {"max_steps": 40, "validate_every": 20, "log_every": 10, "valid_bleu": False}


def test_training_on_cuda_reads_the_shards_and_resumes(prepared, tmp_path):  # noqa: F811
    whole = train(_config(prepared, tmp_path / "whole", **STEPS), device="cuda", dtype="fp32")
    records = _log(whole, "train")
    assert len(records) == 4 and all(math.isfinite(r["loss"]) for r in records)
    assert records[-1]["loss"] < records[0]["loss"]
    part = _config(prepared, tmp_path / "part", **{**STEPS, "max_steps": 20})
    train(part, device="cuda", dtype="fp32")
    resumed = train(
        _config(prepared, tmp_path / "part", **STEPS), tmp_path / "part", "cuda", "fp32"
    )
    ours = read_state_dict(resumed / "step-0000040")
    theirs = read_state_dict(whole / read_index(whole)["last"])
    for name, tensor in theirs.items():  # CUDA's atomic adds may differ in the last bits
        torch.testing.assert_close(ours[name], tensor, rtol=1e-3, atol=1e-4)


def test_prefetched_batches_reach_the_gpu_pinned_and_train_as_in_line(
    prepared,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    steps = {**STEPS, "max_steps": 10, "log_every": 1, "validate_every": 10}
    pinned, real = [], Batch.to

    def to(self, device, non_blocking=False):
        if non_blocking:  # the training step's copies (validation's wait)
            pinned.append(self.src.is_pinned() and self.tgt_out.is_pinned())
        return real(self, device, non_blocking)

    monkeypatch.setattr(Batch, "to", to)
    ahead = train(_config(prepared, tmp_path / "ahead", **steps), device="cuda", dtype="fp32")
    assert pinned == [True] * 10  # prefetch: auto is on for CUDA
    plain = _config(prepared, tmp_path / "plain", **steps, prefetch="never")
    plain_run = train(plain, device="cuda", dtype="fp32")
    ours, theirs = ([r["loss"] for r in _log(run, "train")] for run in (ahead, plain_run))
    assert ours == pytest.approx(theirs, rel=1e-4)


def test_a_compiled_training_step_learns_as_the_eager_one(prepared, tmp_path):  # noqa: F811
    """Without dropout: compiled code draws its dropout masks from another random stream (a
    first run on an H100 differed by 0.2% at step 1 with it)."""
    steps = {**STEPS, "max_steps": 12, "log_every": 1, "validate_every": 12}
    runs = []
    for name, compiled in (("compiled", True), ("eager", False)):
        cfg = _config(prepared, tmp_path / name, **steps, compile=compiled)
        model = dataclasses.replace(cfg.model, dropout=0.0, attention_dropout=0.0)
        runs.append(train(dataclasses.replace(cfg, model=model), device="cuda", dtype="fp32"))
    ours, theirs = ([r["loss"] for r in _log(run, "train")] for run in runs)
    assert len(ours) == 12 and ours == pytest.approx(theirs, rel=2e-3)
    assert _log(runs[0], "valid")[-1]["dev_loss"] == pytest.approx(
        _log(runs[1], "valid")[-1]["dev_loss"], rel=2e-3
    )

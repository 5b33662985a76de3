"""The GPU road: training on CUDA from the memory-mapped token shards (and resuming exactly as
on the CPU). Skipped on a machine without a GPU; nccl DDP is tested in test_train_ddp.py."""

import math

import pytest
import torch
from test_train_tatoeba import _config, _log, prepared  # noqa: F401  (a module fixture)

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

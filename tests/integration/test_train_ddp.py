"""Two processes under torchrun (gloo): parameters agree across ranks after several steps and
equal one process accumulating the same two batches per step.

Run as a script by torchrun, this file is the worker: it trains, then each rank writes its own
parameters to ``OUT/rank-R.safetensors``.
"""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file
from test_train_tatoeba import _config, prepared  # noqa: F401  (a module fixture)

from fanyi import runtime
from fanyi.config import from_dict, override, to_dict
from fanyi.data import TokenBatchSampler, load_split, load_vocabs
from fanyi.model_dir import model_tensors, read_state_dict
from fanyi.train import TrainConfig, Trainer, train

STEPS = 6


def _even_max_tokens(data: Path) -> int:
    """A batch size whose batch count is even, so 2 ranks split the same batches as 1 process."""
    dataset = load_split(data, "train", load_vocabs(data))
    for max_tokens in range(600, 1200, 16):
        if len(TokenBatchSampler(*dataset.sizes(), max_tokens, seed=1).batches()) % 2 == 0:
            return max_tokens
    raise AssertionError("no even batch count found")


def test_two_processes_equal_one_process_accumulating_two_batches(prepared, tmp_path):  # noqa: F811
    cfg = _config(
        prepared,
        tmp_path / "ddp",
        max_steps=STEPS,
        validate_every=STEPS,
        log_every=2,
        max_tokens=_even_max_tokens(prepared),
        valid_bleu=False,
        best_metric="loss",
        model=dataclasses.replace(_config(prepared, tmp_path).model, dropout=0.0),
    )
    config_file = tmp_path / "train.json"
    config_file.write_text(json.dumps(to_dict(cfg)))
    tests = str(Path(__file__).resolve().parents[1])  # the worker imports conftest from there
    path = os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": path}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            "2",
            __file__,
            str(config_file),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    ranks = [load_file(tmp_path / "ddp" / f"rank-{r}.safetensors") for r in (0, 1)]
    for name, tensor in ranks[0].items():
        assert torch.equal(tensor, ranks[1][name]), name
    single = train(override(cfg, {"out_dir": str(tmp_path / "single"), "accumulation": 2}))
    expected = read_state_dict(single / f"step-{STEPS:07d}")
    for name, tensor in ranks[0].items():
        torch.testing.assert_close(tensor, expected[name], rtol=0, atol=1e-6, msg=name)


def _worker(config_file: str) -> None:
    """torchrun entry point: join the job as `fanyi train` does, train, save this rank's
    parameters."""
    cfg = from_dict(TrainConfig, json.loads(Path(config_file).read_text()))
    with runtime.training_process("cpu", threads=1) as device:
        trainer = Trainer(cfg, device=device)
        trainer.run()
        tensors, _ = model_tensors(trainer.model)
        save_file(tensors, Path(cfg.out_dir) / f"rank-{trainer.dist.rank}.safetensors")


if __name__ == "__main__":
    _worker(sys.argv[1])
else:
    pytestmark = pytest.mark.skipif(
        not torch.distributed.is_available(), reason="torch.distributed is not available"
    )

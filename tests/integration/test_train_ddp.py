"""Data-parallel training under torchrun (gloo on CPUs; nccl where two GPUs are), on one machine
and on two "machines" (two torchrun invocations meeting at a c10d rendezvous on 127.0.0.1, as on
a cluster): parameters agree across ranks after several steps and equal one process
accumulating the same two batches per step; a machine lost mid-run ends the job, leaving
checkpoints that load and a run that resumes on the machine left; machines whose copies of the data differ refuse
to start, naming the files.
"""

import dataclasses
import json
import shutil
import time
from pathlib import Path

import pytest
import torch
from ddp_worker import finish, kill_machine, run_machines, start, start_machines
from safetensors.torch import load_file
from test_train_tatoeba import _config, prepared  # noqa: F401  (a module fixture)

from fanyi.cli import main
from fanyi.config import override, save_yaml, to_dict
from fanyi.data import TokenBatchSampler, load_split, load_vocabs
from fanyi.model_dir import load_model, read_checkpoint, read_index, read_state_dict
from fanyi.train import train
from fanyi.train.state import load_training_state

STEPS = 6
WORKER = str(Path(__file__).with_name("ddp_worker.py"))
# slow: torchrun jobs (about 1.5 minutes)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not torch.distributed.is_available(), reason="torch.distributed is not available"
    ),
]


def _even_max_tokens(data: Path) -> int:
    """A batch size whose batch count is even, so 2 ranks split the same batches as 1 process."""
    dataset = load_split(data, "train", load_vocabs(data))
    for max_tokens in range(600, 1200, 16):
        if len(TokenBatchSampler(*dataset.sizes(), max_tokens, seed=1).batches()) % 2 == 0:
            return max_tokens
    raise AssertionError("no even batch count found")


TWO_GPUS = pytest.mark.skipif(
    not torch.cuda.is_available() or torch.cuda.device_count() < 2, reason="needs two GPUs (nccl)"
)


@pytest.mark.parametrize(
    ("machines", "device"), [(1, "cpu"), (2, "cpu"), pytest.param(2, "cuda", marks=TWO_GPUS)]
)
def test_two_processes_equal_one_process_accumulating_two_batches(
    prepared,  # noqa: F811
    tmp_path,
    machines,
    device,
):
    cfg = _config(
        prepared,
        tmp_path / "ddp",
        device=device,
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
    if machines == 1:
        command = ["--standalone", "--nproc-per-node=2", WORKER, str(config_file)]
        assert finish([start(command, tmp_path / "job.log")], tmp_path) == [0]
    else:  # the second machine reads its own copy of the data directory
        copy = tmp_path / "copy.json"
        copy.write_text(json.dumps({**to_dict(cfg), "data_dir": str(tmp_path / "data-copy")}))
        shutil.copytree(prepared, tmp_path / "data-copy")
        run_machines([[WORKER, str(config_file)], [WORKER, str(copy)]], tmp_path, device == "cuda")
    ranks = [load_file(tmp_path / "ddp" / f"rank-{r}.safetensors") for r in (0, 1)]
    for name, tensor in ranks[0].items():
        assert torch.equal(tensor, ranks[1][name]), name
    single = train(
        override(cfg, {"out_dir": str(tmp_path / "single"), "accumulation": 2}), device=device
    )
    expected = read_state_dict(single / f"step-{STEPS:07d}")
    tolerance = 1e-6 if device == "cpu" else 1e-5  # GPU kernels sum in another order
    for name, tensor in ranks[0].items():
        torch.testing.assert_close(tensor, expected[name], rtol=0, atol=tolerance, msg=name)


def _fanyi_train(*flags: str) -> list[str]:
    return ["-m", "fanyi", "train", "--threads=1", "--progress=false", *flags]


def _wait_for_checkpoint(run: Path, step: int, machines: list) -> None:
    deadline = time.monotonic() + 120
    while not (run / "checkpoints.json").is_file() or read_index(run)["last"] < f"step-{step:07d}":
        assert all(m.poll() is None for m in machines), "a machine ended before the kill"
        assert time.monotonic() < deadline, "no checkpoint in time"
        time.sleep(0.1)


def test_a_machine_lost_mid_run_ends_the_job_and_the_run_resumes(prepared, tmp_path, monkeypatch):  # noqa: F811
    """The run resumes here on the one machine left (resuming on two: test_train_elastic.py)."""
    run = tmp_path / "run"
    cfg = _config(prepared, run, max_steps=10_000, validate_every=3, valid_bleu=False, device="cpu")
    save_yaml(cfg, tmp_path / "train.yaml")
    command = _fanyi_train(f"--config={tmp_path / 'train.yaml'}")
    machines = start_machines([command, command], tmp_path / "lost")
    try:
        _wait_for_checkpoint(run, 3, machines)
    except BaseException:
        for machine in machines:
            kill_machine(machine.pid)
        raise
    kill_machine(machines[1].pid)  # the second machine dies, whichever rank it held
    codes = finish(machines, tmp_path / "lost", timeout=90)  # the other one ends too
    assert codes[0] != 0
    checkpoints = sorted(run.glob("step-*"))
    for checkpoint in checkpoints:  # every checkpoint named is whole
        assert read_state_dict(checkpoint) and load_training_state(checkpoint)["world_size"] == 2
    _, last = load_model(run / read_index(run)["last"])
    assert last.path == checkpoints[-1]
    step = last.info.step
    monkeypatch.setenv("FANYI_TCMALLOC", "0")  # no re-execution of the test process
    resume = ["--threads=1", "--progress=false", "--keep-effective-batch=true"]
    assert main(["train", f"--resume={run}", f"--max-steps={step + 3}", *resume]) == 0
    state = load_training_state(run / read_index(run)["last"])
    assert state["state"]["step"] == step + 3 and state["world_size"] == 1
    assert read_checkpoint(run, "last").train["accumulation"] == 2  # the batch of a step kept


def test_machines_whose_copies_of_the_data_differ_refuse_to_start(prepared, tmp_path):  # noqa: F811
    copy = shutil.copytree(prepared, tmp_path / "data-copy")
    lines = (copy / "train.src").read_text(encoding="utf-8").splitlines()
    (copy / "train.src").write_text("\n".join(["这是另一个句子。", *lines[1:]]) + "\n")
    save_yaml(
        _config(prepared, tmp_path / "run", max_steps=3, device="cpu"), tmp_path / "train.yaml"
    )
    command = _fanyi_train(f"--config={tmp_path / 'train.yaml'}")
    machines = start_machines([command, [*command, f"--data-dir={copy}"]], tmp_path)
    assert all(code != 0 for code in finish(machines, tmp_path, timeout=90))
    for log in sorted(tmp_path.glob("machine-*.log")):
        assert "(exitcode: 2)" in log.read_text()  # fanyi's exit code for a refusal, on both
        assert "disagree on the training data" in log.read_text()
        assert "has other train.src than rank 0" in log.read_text()
    assert not (tmp_path / "run" / "checkpoints.json").exists()

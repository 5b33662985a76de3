"""Elastic resume: a run of two processes resumed by one, and a run of one resumed by two (as two
"machines"), trains on every example of the interrupted epoch exactly once, then goes on into
the next epoch with the new number's own batches."""

import json
from pathlib import Path

import pytest
import torch
from ddp_worker import finish, recording, run_machines, start
from test_train_tatoeba import _config, _log, prepared  # noqa: F401  (a module fixture)

from fanyi.config import to_dict
from fanyi.data import TokenBatchSampler, load_split, load_vocabs
from fanyi.model_dir import read_index
from fanyi.train import TrainConfig, train
from fanyi.train.state import load_training_state

STEPS = 3  # taken before the interruption
MAX_TOKENS = 3000  # few, large batches: an epoch of the 2,800 training pairs is 10 of them
WORKER = str(Path(__file__).with_name("ddp_worker.py"))
# slow: torchrun jobs resumed (about 1 minute)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not torch.distributed.is_available(), reason="torch.distributed is not available"
    ),
]


def _cfg(data: Path, out: Path, **changes) -> TrainConfig:
    return _config(
        data,
        out,
        max_tokens=MAX_TOKENS,
        validate_every=1000,
        valid_bleu=False,
        device="cpu",
        **changes,
    )


def _sampler(data: Path, world_size: int, epoch: int, earlier=()) -> TokenBatchSampler:
    """All ranks' batches of ``epoch`` as ``world_size`` ranks share them."""
    sampler = TokenBatchSampler(
        *load_split(data, "train", load_vocabs(data)).sizes(), MAX_TOKENS, 1, world_size=world_size
    )
    sampler.set_epoch(epoch, earlier)
    return sampler


def _torchrun_worker(cfg: TrainConfig, logs: Path, resume: Path | None = None) -> list[dict]:
    """``cfg`` trained by 2 processes, as two machines when resuming; each rank's batches."""
    logs.mkdir()
    (logs / "train.json").write_text(json.dumps(to_dict(cfg)))
    command = [WORKER, str(logs / "train.json"), *([str(resume)] if resume else [])]
    if resume:
        run_machines([command, command], logs)
    else:
        assert finish(
            [start(["--standalone", "--nproc-per-node=2", *command], logs / "job.log")], logs
        ) == [0]
    out = Path(cfg.out_dir)
    return [
        {int(e): b for e, b in json.loads((out / f"batches-{r}.json").read_text()).items()}
        for r in (0, 1)
    ]


def _epoch_once(data: Path, *runs: list[list[int]]) -> None:
    """The batches of an epoch, however many runs and ranks took them, hold each example once."""
    examples = sorted(i for batches in runs for batch in batches for i in batch)
    assert examples == list(range(len(load_split(data, "train", load_vocabs(data)))))


def test_two_processes_resumed_by_one_see_the_epoch_once(prepared, tmp_path):  # noqa: F811
    run = tmp_path / "run"
    before = _torchrun_worker(_cfg(prepared, run, max_steps=STEPS), tmp_path / "two")
    assert [len(rank[0]) for rank in before] == [STEPS, STEPS]
    left = len(_sampler(prepared, 2, 0).batches()) - 2 * STEPS  # even: 2 ranks' equal shares
    end = STEPS + left // 2  # one process accumulating 2 batches: the batch of a step is kept
    after: dict[int, list[list[int]]] = {}
    resumed = _cfg(prepared, run, max_steps=end + 2, keep_effective_batch=True)
    with recording(after):
        train(resumed, run)
    _epoch_once(prepared, *(rank[0] for rank in before), after[0])
    assert after[1] == _sampler(prepared, 1, 1).batches()[:4]  # then one process's own order
    state = load_training_state(run / read_index(run)["last"])
    assert state["world_size"] == 1 and state["state"]["step"] == end + 2
    assert all(torch.isfinite(torch.tensor([r["loss"] for r in _log(run, "train")])))


def test_one_process_resumed_by_two_machines_sees_the_epoch_once(prepared, tmp_path):  # noqa: F811
    run = tmp_path / "run"
    before: dict[int, list[list[int]]] = {}
    with recording(before):
        train(_cfg(prepared, run, max_steps=STEPS))
    left = len(_sampler(prepared, 2, 0, [(1, STEPS)]))  # each rank's share of what is left
    after = _torchrun_worker(_cfg(prepared, run, max_steps=STEPS + left + 2), tmp_path / "two", run)
    _epoch_once(prepared, before[0], *(rank[0] for rank in after))
    shares = _sampler(prepared, 2, 1).batches()
    assert [rank[1] for rank in after] == [shares[0:4:2], shares[1:4:2]]  # two ranks' own order
    logs = [log.read_text() for log in (tmp_path / "two").glob("machine-*.log")]
    assert any("a step now takes 2 batches" in log for log in logs)  # rank 0 said so
    state = load_training_state(run / read_index(run)["last"])
    assert state["world_size"] == 2 and state["state"]["step"] == STEPS + left + 2

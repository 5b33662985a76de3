"""Prefetched batches in a training run: the same losses step by step as collating in line,
across an epoch boundary and through a resume, and no thread left after the run, a time-budget
stop or an interrupt."""

import json
import threading

import pytest

from fanyi.train import train
from fanyi.train.prefetch import THREAD_NAME
from fanyi.train.trainer import Trainer
from tiny_run import tiny_config, word_corpus

STEPS = {"max_steps": 12, "accumulation": 2, "log_every": 1, "validate_every": 6}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return word_corpus(tmp_path_factory.mktemp("prefetch"))


def losses(run) -> list[tuple[int, int, float]]:
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    return [(r["step"], r["epoch"], r["loss"]) for r in records if r["kind"] == "train"]


def assert_same_losses(ours: list, theirs: list) -> None:
    assert [r[:2] for r in ours] == [r[:2] for r in theirs]
    assert [r[2] for r in ours] == pytest.approx([r[2] for r in theirs], rel=1e-5)


def no_prefetch_thread() -> bool:
    return not any(t.name.startswith(THREAD_NAME) for t in threading.enumerate())


@pytest.mark.parametrize("alpha", [0.0, 0.1])  # 0.1: segmentations sampled on the thread
def test_a_prefetched_run_and_its_resume_take_the_steps_of_an_in_line_run(
    data_dir, tmp_path, alpha
):
    steps = {**STEPS, "subword_alpha": alpha}
    plain = train(tiny_config(data_dir, tmp_path / "plain", **steps, prefetch="never"))
    assert losses(plain)[-1][1] > 0  # the run crossed an epoch boundary
    ahead = train(tiny_config(data_dir, tmp_path / "ahead", **steps, prefetch="always"))
    assert no_prefetch_thread()
    assert_same_losses(losses(ahead), losses(plain))
    half = tiny_config(data_dir, tmp_path / "half", **{**steps, "max_steps": 5}, prefetch="always")
    train(half)  # the checkpoint at step 5 stands mid-epoch
    resumed = train(tiny_config(data_dir, half.out_dir, **steps, prefetch="always"), half.out_dir)
    assert_same_losses(losses(resumed), losses(plain))
    assert no_prefetch_thread()


def test_no_thread_is_left_after_a_time_budget_stop_or_an_interrupt(
    data_dir, tmp_path, monkeypatch
):
    budget = tiny_config(data_dir, tmp_path / "budget", prefetch="always", max_minutes=0.001)
    records = (train(budget) / "log.jsonl").read_text().splitlines()
    assert json.loads(records[-1])["step"] < budget.max_steps and no_prefetch_thread()
    real = Trainer.step

    def interrupted(self, pulled, batches):
        if self.state.step == 3:
            raise KeyboardInterrupt
        return real(self, pulled, batches)

    monkeypatch.setattr(Trainer, "step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(tiny_config(data_dir, tmp_path / "stopped", prefetch="always"))
    assert no_prefetch_thread()

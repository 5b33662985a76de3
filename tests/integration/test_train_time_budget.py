"""``max_minutes``: training stops cleanly once its wall-clock budget is spent, with a last
validation and checkpoint at the step it reached."""

import json
from types import SimpleNamespace

import pytest

from fanyi.model_dir import read_index
from fanyi.train import TrainConfig, train
from fanyi.train import trainer as trainer_module
from tiny_run import tiny_config, word_corpus


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return word_corpus(tmp_path_factory.mktemp("budget"))


def test_training_stops_when_the_budget_is_spent(data_dir, tmp_path, monkeypatch):
    seconds = iter(range(10_000))  # a clock that moves one second each time it is read
    clock = SimpleNamespace(
        monotonic=lambda: next(seconds), perf_counter=trainer_module.time.perf_counter
    )
    monkeypatch.setattr(trainer_module, "time", clock)
    run = train(tiny_config(data_dir, tmp_path / "run", max_minutes=3 / 60))
    # read at the start (0 s, deadline 3 s), then after steps 1, 2, 3: out of time at 3 s
    assert read_index(run)["last"] == "step-0000003"
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [r["step"] for r in records if r["kind"] == "valid"] == [3]


def test_without_a_budget_max_steps_still_rules(data_dir, tmp_path):
    run = train(tiny_config(data_dir, tmp_path / "run", max_steps=4))
    assert read_index(run)["last"] == "step-0000004"


def test_the_budget_must_be_positive_and_may_change_on_resume(data_dir, tmp_path):
    with pytest.raises(ValueError, match="max_minutes must be positive"):
        TrainConfig(max_minutes=0)
    run = train(tiny_config(data_dir, tmp_path / "run", max_steps=2, max_minutes=60))
    resumed = train(tiny_config(data_dir, run, max_steps=3, max_minutes=None), resume=run)
    assert read_index(resumed)["last"] == "step-0000003"
    with pytest.raises(ValueError, match=r"lr_factor: 1\.0 → 2\.0"):  # a key that may not change
        train(tiny_config(data_dir, run, max_steps=4, lr_factor=2.0), resume=run)

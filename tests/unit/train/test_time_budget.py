"""``max_minutes``: training stops cleanly once its wall-clock budget is spent, with a last
validation and checkpoint at the step it reached."""

import json
import random
from types import SimpleNamespace

import pytest

from fanyi.config import override
from fanyi.data import DataConfig, prepare
from fanyi.model import ModelConfig
from fanyi.model_dir import read_index
from fanyi.train import TrainConfig, train
from fanyi.train import trainer as trainer_module
from fanyi.train.config import RESUMABLE_CHANGES

WORDS = {"red": "红", "cat": "猫", "dog": "狗", "eats": "吃", "fish": "鱼", "big": "大"}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """A synthetic word-for-word corpus, prepared (small SentencePiece vocabulary)."""
    root = tmp_path_factory.mktemp("budget")
    rng = random.Random(0)
    lines = []
    for _ in range(300):
        words = rng.choices(list(WORDS), k=rng.randint(2, 6))
        lines.append(f"{' '.join(words)}\t{''.join(WORDS[w] for w in words)}\tx\n")
    (root / "corpus.tsv").write_text("".join(lines), encoding="utf-8")
    config = DataConfig(
        train=str(root / "corpus.tsv"),
        dev_size=20,
        test_size=20,
        vocab_size=300,
        character_coverage=1.0,
        out_dir=str(root / "data"),
    )
    prepare(config)
    return root / "data"


def _config(data_dir, out, **changes) -> TrainConfig:
    tiny = TrainConfig(
        data_dir=str(data_dir),
        out_dir=str(out),
        model=ModelConfig(d_model=16, d_ff=32, h=2, N_enc=1, N_dec=1),
        max_tokens=256,
        max_steps=1000,
        warmup=10,
        dtype="fp32",
        validate_every=1000,
        valid_bleu=False,
        best_metric="loss",
        progress=False,
        log_every=1000,
    )
    return override(tiny, changes)


def test_training_stops_when_the_budget_is_spent(data_dir, tmp_path, monkeypatch):
    seconds = iter(range(10_000))  # a clock that moves one second each time it is read
    clock = SimpleNamespace(
        monotonic=lambda: next(seconds), perf_counter=trainer_module.time.perf_counter
    )
    monkeypatch.setattr(trainer_module, "time", clock)
    run = train(_config(data_dir, tmp_path / "run", max_minutes=3 / 60))
    # read at the start (0 s, deadline 3 s), then after steps 1, 2, 3: out of time at 3 s
    assert read_index(run)["last"] == "step-0000003"
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [r["step"] for r in records if r["kind"] == "valid"] == [3]


def test_without_a_budget_max_steps_still_rules(data_dir, tmp_path):
    run = train(_config(data_dir, tmp_path / "run", max_steps=4))
    assert read_index(run)["last"] == "step-0000004"


def test_the_budget_must_be_positive_and_may_change_on_resume():
    with pytest.raises(ValueError, match="max_minutes must be positive"):
        TrainConfig(max_minutes=0)
    assert "max_minutes" in RESUMABLE_CHANGES

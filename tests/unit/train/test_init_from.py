"""``init_from``: a run that starts from a trained model's weights, with a fresh optimizer, and
refuses a model whose config or vocabulary is not the data's."""

import random

import pytest
import torch

from fanyi import model_dir as ckpt
from fanyi.config import override
from fanyi.data import DataConfig
from fanyi.data.build import prepare
from fanyi.model import ModelConfig
from fanyi.train import TrainConfig, Trainer, train

WORDS = {"red": "红", "cat": "猫", "dog": "狗", "eats": "吃", "fish": "鱼", "big": "大"}


def _prepare(root, seed=0, **changes):
    rng = random.Random(seed)
    lines = []
    for _ in range(300):
        words = rng.choices(list(WORDS), k=rng.randint(2, 6))
        lines.append(f"{' '.join(words)}\t{''.join(WORDS[w] for w in words)}\tx\n")
    (root / "corpus.tsv").write_text("".join(lines), encoding="utf-8")
    values = {
        "train": str(root / "corpus.tsv"),
        "dev_size": 20,
        "test_size": 20,
        "vocab_size": 300,
        "character_coverage": 1.0,
        "out_dir": str(root / "data"),
    }
    prepare(DataConfig(**{**values, **changes}))
    return root / changes.get("out_dir", "data")


def _config(data_dir, out, **changes) -> TrainConfig:
    tiny = TrainConfig(
        data_dir=str(data_dir),
        out_dir=str(out),
        model=ModelConfig(d_model=16, d_ff=32, h=2, N_enc=1, N_dec=1),
        max_tokens=256,
        max_steps=3,
        warmup=10,
        dtype="fp32",
        validate_every=1000,
        valid_bleu=False,
        best_metric="loss",
        progress=False,
        log_every=1000,
    )
    return override(tiny, changes)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("init")
    data = _prepare(root)
    return data, train(_config(data, root / "run"))


def test_a_run_starts_from_the_model_weights_with_a_new_optimizer(trained, tmp_path):
    data, run = trained
    start = Trainer(_config(data, tmp_path / "next", init_from=str(run), seed=5))
    saved = ckpt.read_state_dict(ckpt.resolve(run))
    for name, tensor in start.model.state_dict().items():
        assert torch.equal(tensor, saved[name]), name
    assert start.state.step == 0 and not start.optimizer.state
    fresh = Trainer(_config(data, tmp_path / "fresh", seed=5))
    assert not torch.equal(fresh.model.generator.proj.weight, start.model.generator.proj.weight)


def test_another_vocabulary_or_model_config_is_refused(trained, tmp_path):
    data, run = trained
    other = _prepare(tmp_path, seed=1, out_dir=str(tmp_path / "other"))  # other text, same size
    with pytest.raises(ValueError, match=r"vocabulary spm\.model differs"):
        Trainer(_config(other, tmp_path / "a", init_from=str(run)))
    wider = ModelConfig(d_model=32, d_ff=32, h=2, N_enc=1, N_dec=1)
    with pytest.raises(ValueError, match="model config differs from this run's"):
        Trainer(_config(data, tmp_path / "b", init_from=str(run), model=wider))
    vocab_from = _prepare(
        tmp_path, vocab_from=str(run / "step-0000003"), out_dir=str(tmp_path / "v")
    )
    Trainer(_config(vocab_from, tmp_path / "c", init_from=str(run)))  # the same vocabulary: fine

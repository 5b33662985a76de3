"""A word-for-word corpus and a training config that trains on it in seconds: for the tests of
the training loop's bookkeeping (time budgets, resuming, starting from another model)."""

import random
from pathlib import Path

from fanyi.config import override
from fanyi.data import DataConfig
from fanyi.data.build import prepare
from fanyi.model import ModelConfig
from fanyi.train import TrainConfig

WORDS = {"red": "红", "cat": "猫", "dog": "狗", "eats": "吃", "fish": "鱼", "big": "大"}


def word_corpus(root: Path, seed: int = 0, **changes: object) -> Path:
    """A synthetic word-for-word corpus (drawn with ``seed``) prepared under ``root`` (small
    SentencePiece vocabulary; DataConfig ``changes`` on top); returns the data directory."""
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
        **changes,
    }
    prepare(DataConfig(**values))
    return Path(str(values["out_dir"]))


def tiny_config(data_dir, out, **changes) -> TrainConfig:
    """A one-layer d_model 16 model, fp32, 1,000 steps unless ``changes`` say otherwise; no
    validation, logging or checkpoint before the end."""
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

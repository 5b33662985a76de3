"""The one small model configuration of the unit tests: fast, yet every part of Figure 1."""

from __future__ import annotations

import torch

from fanyi.model import ModelConfig, Transformer, build_model


def tiny_config(vocab: int = 40, **changes: object) -> ModelConfig:
    """d_model 32, 4 heads, 2 + 2 layers, no dropout, one vocabulary size; ``changes`` on top."""
    values: dict[str, object] = {
        "src_vocab_size": vocab,
        "tgt_vocab_size": vocab,
        "d_model": 32,
        "d_ff": 64,
        "h": 4,
        "N_enc": 2,
        "N_dec": 2,
        "dropout": 0.0,
        **changes,
    }
    return ModelConfig(**values)  # type: ignore[arg-type]


def tiny_model(seed: int = 0, vocab: int = 40, **changes: object) -> Transformer:
    """A freshly initialised (``seed``) tiny Transformer in eval mode."""
    torch.manual_seed(seed)
    return build_model(tiny_config(vocab, **changes)).eval()


def peaked_model() -> Transformer:
    """A tiny model (64 pieces, d_model 64) whose output distribution is peaked, like a trained
    model's: its output projection scaled by 3."""
    model = tiny_model(0, vocab=64, d_model=64, d_ff=128)
    with torch.no_grad():
        model.generator.proj.weight.mul_(3.0)
    return model

"""Model config serialisation, overrides, weight tying, initialisation and parameter count."""

import pytest
import torch

from fanyi import config as cfg
from fanyi.model import ModelConfig, build_model
from fanyi.train import TrainConfig
from tiny_model import tiny_config


def test_config_round_trips_through_yaml(tmp_path):
    c = ModelConfig(d_model=256, h=4, norm="pre", tie_embeddings=True)
    cfg.save_yaml(c, tmp_path / "m.yaml")
    assert cfg.load_yaml(ModelConfig, tmp_path / "m.yaml") == c
    nested = TrainConfig(model=c, max_steps=7)  # a config holding a config: typed both ways
    cfg.save_yaml(nested, tmp_path / "t.yaml")
    assert cfg.load_yaml(TrainConfig, tmp_path / "t.yaml") == nested


def test_overrides_are_typed_and_checked():
    flags = {"d_model": "256", "norm": "pre", "dropout": "0.3", "tie_embeddings": "true"}
    c = cfg.override(ModelConfig(), flags)  # strings, as the command line gives them
    assert (c.d_model, c.norm, c.dropout, c.tie_embeddings) == (256, "pre", 0.3, True)
    train = cfg.override(TrainConfig(), {"model": "{d_model: 64, h: 2}"})
    assert isinstance(train.model, ModelConfig) and (train.model.d_model, train.model.h) == (64, 2)
    with pytest.raises(ValueError, match="unknown ModelConfig"):
        cfg.override(TrainConfig(), {"model": {"d_modle": 3}})
    with pytest.raises(ValueError, match="unknown"):
        cfg.override(ModelConfig(), {"d_modle": 3})
    with pytest.raises(ValueError, match="not one of"):
        cfg.override(ModelConfig(), {"norm": "sandwich"})
    with pytest.raises(ValueError, match="divisible"):
        ModelConfig(d_model=30, h=4)


def test_three_way_weight_tying_shares_one_matrix():
    model = build_model(tiny_config(100, tie_embeddings=True))
    shared = model.generator.proj.weight
    assert model.src_embed.embeddings.lut.weight is shared
    assert model.tgt_embed.embeddings.lut.weight is shared
    untied = build_model(tiny_config(100))
    assert untied.num_parameters() - model.num_parameters() == 2 * 100 * 32


def test_parameter_count_matches_the_formula():
    c = ModelConfig(
        src_vocab_size=37, tgt_vocab_size=41, d_model=16, d_ff=24, h=2, N_enc=2, N_dec=3
    )
    d, f = c.d_model, c.d_ff
    attention = 4 * d * d + 4 * d
    ffn = 2 * d * f + d + f
    norm = 2 * d
    expected = (
        c.N_enc * (attention + ffn + 2 * norm)
        + c.N_dec * (2 * attention + ffn + 3 * norm)
        + 37 * d
        + 41 * d
        + 41 * d
        + 41
    )
    assert build_model(c).num_parameters() == expected


def test_xavier_uniform_initialisation_bounds():
    torch.manual_seed(0)
    model = build_model(tiny_config(10, d_model=64, d_ff=256))
    w = model.encoder.layers[0].feed_forward.w_1.weight  # 256 x 64
    bound = (6 / (64 + 256)) ** 0.5
    assert w.abs().max() <= bound and w.abs().max() > 0.9 * bound
    assert model.src_embed.embeddings.lut.weight[0].abs().sum() == 0  # padding row

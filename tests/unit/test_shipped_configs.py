"""Every config file under configs/ loads into its settings: no unknown key, no bad value, and a
train config's model builds (a config that fails at `fanyi prepare` or `fanyi train` time is a
recipe a user cannot run)."""

from dataclasses import replace
from pathlib import Path

import pytest

from fanyi.config import load_yaml
from fanyi.data import DataConfig
from fanyi.model import build_model
from fanyi.train.config import TrainConfig

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("path", sorted((CONFIGS / "data").glob("*.yaml")), ids=lambda p: p.stem)
def test_a_data_config_loads(path):
    config = load_yaml(DataConfig, path)
    assert config.out_dir


@pytest.mark.parametrize("path", sorted((CONFIGS / "train").glob("*.yaml")), ids=lambda p: p.stem)
def test_a_train_config_loads_and_its_model_builds(path):
    config = load_yaml(TrainConfig, path)
    small_vocabulary = replace(config.model, src_vocab_size=64, tgt_vocab_size=64)
    model = build_model(small_vocabulary, initialise=False)
    assert sum(p.numel() for p in model.parameters()) > 0

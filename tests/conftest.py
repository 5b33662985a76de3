"""Shared test settings: one intra-op thread (the machine has two cores shared by everything)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

torch.set_num_threads(1)

REPO = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    """The shared corpora: $FANYI_DATA, else ../shared/data beside the repository."""
    return Path(os.environ.get("FANYI_DATA", REPO.parent / "shared" / "data"))


def run_benchmark(name: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run benchmarks/NAME from the repository root as a user would; its output as text."""
    return subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / name), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def data_dir() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip(f"shared corpora not found at {path} (set FANYI_DATA)")
    return path


@pytest.fixture(scope="session")
def bundled_data(tmp_path_factory) -> Path:
    """The bundled model's data directory, rebuilt from the shared corpus with its own data
    config (same seed, so the same leak-free dev and test pairs); the split only."""
    import dataclasses

    import yaml

    from fanyi.data import DataConfig, prepare
    from fanyi.decode.translator import BUNDLED

    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip(f"shared corpora not found at {path} (set FANYI_DATA)")
    sections = yaml.safe_load((BUNDLED / "config.yaml").read_text(encoding="utf-8"))
    config = DataConfig(**sections["data"])
    out = tmp_path_factory.mktemp("bundled-data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FANYI_DATA", str(path))
        # held-out pairs do not depend on extra corpora, augmentation or where the vocabulary
        # comes from: leave those out
        split_only = {"extra_train": [], "concat_augment": 0.0, "vocab_from": None}
        prepare(dataclasses.replace(config, out_dir=str(out), **split_only))
    return out

"""Shared test settings: one intra-op thread (the machine has two cores shared by everything)."""

import os
from pathlib import Path

import pytest
import torch

torch.set_num_threads(1)

REPO = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    """The shared corpora: $FANYI_DATA, else ../shared/data beside the repository."""
    return Path(os.environ.get("FANYI_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture
def data_dir() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip(f"shared corpora not found at {path} (set FANYI_DATA)")
    return path

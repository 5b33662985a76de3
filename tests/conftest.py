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

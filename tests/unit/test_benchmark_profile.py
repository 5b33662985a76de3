"""benchmarks/profile_translate.py: a --set value read as the flags read it, and the own seconds
of the model's kernels found in a cProfile table."""

import cProfile
import importlib
import pstats

import pytest
import torch

from conftest import REPO


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    return importlib.import_module("profile_translate")


def test_a_set_value_is_read_as_a_flag(bench):
    assert bench.value("false") is False and bench.value("true") is True
    assert bench.value("4") == 4 and bench.value("0.2") == 0.2 and bench.value("zh") == "zh"


def test_the_kernels_own_seconds_are_found_and_nothing_else(bench):
    a, b = torch.randn(8, 16, 16), torch.randn(8, 16, 16)
    profile = cProfile.Profile()
    profile.runcall(lambda: [torch.bmm(a, b) for _ in range(50)])
    found = bench.seconds_of(pstats.Stats(profile))
    assert set(found) == {"attention_v"} and found["attention_v"] >= 0

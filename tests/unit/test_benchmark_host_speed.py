"""benchmarks/common.py's host speed: a median of many matmuls, or of three where one is slow."""

import importlib

import pytest

from conftest import REPO


@pytest.fixture
def common(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    return importlib.import_module("common")


def counted_calls(common, monkeypatch, **limits) -> tuple[dict, list]:
    calls = []

    def timed(fn):
        calls.append(fn)
        return original(fn)

    original = common.timed
    monkeypatch.setattr(common, "timed", timed)
    return common.matmul_gflops(1, n=32, **limits), calls


def test_every_call_is_timed_within_the_time_limit(common, monkeypatch):
    speeds, calls = counted_calls(common, monkeypatch, calls=7, seconds=60)
    assert len(calls) == 2 * 7  # bf16 and fp32
    assert set(speeds) == {"bf16", "fp32"} and min(speeds.values()) > 0


def test_a_slow_matmul_is_timed_three_times(common, monkeypatch):
    """An emulated bf16 matmul of 1024 takes seconds (AVX2 only): the limit stops at 3 calls."""
    speeds, calls = counted_calls(common, monkeypatch, calls=20, seconds=0)
    assert len(calls) == 2 * 3
    assert min(speeds.values()) > 0

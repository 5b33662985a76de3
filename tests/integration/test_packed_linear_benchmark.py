"""benchmarks/packed_linear.py runs as a user runs it and checks PackedLinear against F.linear."""

import json

import pytest
import torch

from conftest import run_benchmark
from fanyi.decode.quantize import PackedLinear


def test_packed_linear_benchmark_reports_both_ways_and_the_ratio():
    if not PackedLinear.available(torch.nn.Linear(1, 1)):
        pytest.skip("this CPU has no oneDNN bf16 kernels")
    done = run_benchmark("packed_linear.py", "--quick", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "packed_linear" and result["machine"]["cores"] >= 1
    (one,) = result["results"]
    assert (one["shape"], one["rows"]) == ([8000, 256], 32)
    assert set(one["microseconds"]) == {"F.linear", "PackedLinear"}
    ratio = one["microseconds"]["F.linear"] / one["microseconds"]["PackedLinear"]
    assert abs(one["speedup"] - ratio) < 0.05 * ratio

"""benchmarks/top_k.py runs as a user runs it and checks its own answers against torch.topk."""

import json

from conftest import run_benchmark


def test_top_k_benchmark_reports_both_ways_and_the_ratio():
    done = run_benchmark("top_k.py", "--quick", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "top_k" and result["machine"]["cores"] >= 1
    (one,) = result["results"]
    assert (one["rows"], one["vocab"], one["k"]) == (32, 8000, 1)
    assert set(one["microseconds"]) == {"fanyi", "argmax"}
    ratio = one["microseconds"]["argmax"] / one["microseconds"]["fanyi"]
    assert abs(one["speedup"] - ratio) < 0.05 * ratio

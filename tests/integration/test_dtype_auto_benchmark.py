"""benchmarks/dtype_auto.py end to end on a few golden sentences: every dtype's speed over fp32
on each thread count, and the dtype auto chose, ending with one JSON line."""

import json

import pytest

from conftest import run_benchmark
from fanyi.decode.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
GOLDEN = BUNDLED.parents[3] / "tests" / "system" / "golden" / "bundled.tsv"


def test_dtype_auto_benchmark_reports_each_dtype_and_the_choice(tmp_path):
    rows = [line.split("\t") for line in GOLDEN.read_text(encoding="utf-8").splitlines()][:6]
    (tmp_path / "src").write_text("".join(f"{s}\n" for s, _ in rows), encoding="utf-8")
    done = run_benchmark(
        "dtype_auto.py", "--src", str(tmp_path / "src"), "--threads", "1", "--rounds", "1"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "dtype_auto" and result["sentences"] == 6
    (one,) = result["results"]
    assert one["threads"] == 1 and set(one["seconds"]) == {"fp32", "bf16", "int8"}
    assert one["speed_over_fp32"]["fp32"] == 1.0
    assert one["auto"] in one["seconds"]
    assert one["auto_over_fp32"] == one["speed_over_fp32"][one["auto"]]

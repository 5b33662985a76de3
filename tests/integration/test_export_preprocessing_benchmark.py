"""benchmarks/export_preprocessing.py on a few lines: raw and normalised BLEU, one JSON line."""

import json

import pytest

from conftest import run_benchmark
from fanyi.decode.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


def test_the_benchmark_scores_raw_and_normalised_text():
    done = run_benchmark("export_preprocessing.py", "--limit", "12", "--beam", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "export_preprocessing" and result["lines"] == 12
    assert set(result["bleu"]) == {"raw", "normalised"} and result["changed"] > 0

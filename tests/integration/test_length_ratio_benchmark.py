"""benchmarks/search.py length on a tiny trained model and a few dev lines: every lever scored,
the coverage penalty at β 0 ranking as the beam does, and the EOS floor never shortening."""

import pytest

from conftest import benchmark_on_rows
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # trains the tiny model (shared) and runs the benchmark

ROWS = [
    ("I think Tom is going to the station with his friends today.", "我想汤姆今天和朋友去车站。"),
    ("Thank you very much.", "非常感谢。"),
    ("She likes to read books. He does not.", "她喜欢读书。他不喜欢。"),
    ("Where is the library?", "图书馆在哪里？"),
]


def test_every_lever_is_scored_on_the_dev_lines(tmp_path_factory, tmp_path):
    model = tiny_model_dir(tmp_path_factory)
    args = ["-m", str(model), "--threads", "1", "--lines", "3", "--alphas", "5", "--floors", "1.5"]
    result = benchmark_on_rows("search.py length", tmp_path, "wmt-news", ROWS, *args)
    assert result["benchmark"] == "search" and result["measure"] == "length"
    assert result["lines"] == 3
    rows = result["results"]
    assert set(rows) == {
        "as stored",
        "α 5.0",
        "λ 0.0",
        "λ 1.0",
        "coverage β 0.0 (λ 0)",
        "coverage β 0.2 (λ 0)",
        "coverage β 1.0 (λ 0)",
        "EOS floor r 1.5",
    }
    for figures in rows.values():
        assert figures["signature"].startswith("nrefs:1") and "tok:zh" in figures["signature"]
    beam_order = {k: v for k, v in rows["λ 0.0"].items() if k != "seconds"}
    assert {k: v for k, v in rows["coverage β 0.0 (λ 0)"].items() if k != "seconds"} == beam_order
    assert rows["EOS floor r 1.5"]["length_ratio"] >= rows["as stored"]["length_ratio"]

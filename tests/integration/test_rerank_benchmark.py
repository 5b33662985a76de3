"""benchmarks/search.py rerank on the tiny bidirectional model: both directions, beam order and
reranked, with BLEU, length ratio and seconds, ending with one JSON line."""

import json

import pytest

from conftest import run_benchmark
from fanyi import Translator
from fanyi.data.manifest import read_pairs
from fanyi.scores import score
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # runs benchmarks/search.py rerank


def test_rerank_benchmark_scores_the_beam_and_the_reranked_output(tmp_path_factory):
    model = tiny_model_dir(tmp_path_factory)
    data = model.parents[1] / "data"
    done = run_benchmark(
        "search.py", "rerank", str(model), "--data", str(data), "--split", "dev", "--weight", "1",
        "--limit", "8", "--dtype", "fp32",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "search" and result["measure"] == "rerank"
    assert result["weight"] == 1.0
    assert set(result["results"]) == {"en", "zh"}
    pairs = read_pairs(data, "dev", "zh")
    reranked = Translator.load(model, dtype="fp32", rerank_backward=1.0)
    expected = score(reranked(pairs.sources[:8], to="zh"), [pairs.references[:8]], "zh")
    assert result["results"]["zh"]["reranked"]["bleu"] == round(expected.bleu, 2)
    for figures in result["results"]["en"].values():
        assert figures["seconds"] > 0 and figures["length_ratio"] > 0

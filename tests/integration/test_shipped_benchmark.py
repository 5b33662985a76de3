"""benchmarks/shipped.py on a few held-out lines of the fixtures: the shipped command, one pass
switched and CTranslate2's own API on the int8 export, each timed with its start-up apart and scored,
ending with one JSON line."""

import json

import pytest

from conftest import run_benchmark
from fanyi.translate.model_names import resolve_model_dir

GENERAL = "zh-en-general"

# slow: runs fanyi translate and the CTranslate2 peer as commands on the bundled model
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not resolve_model_dir(GENERAL).is_dir(), reason=f"no bundled model {GENERAL}"
    ),
]


def test_shipped_benchmark_times_and_scores_each_run(tmp_path):
    done = run_benchmark(
        "shipped.py", "--sources", str(tmp_path / "none"), "--sets", "python-docs,tatoeba",
        "--lines", "4", "--to", "en", "--runs", "shipped,rerank_backward,ct2-int8",
        "--outputs", str(tmp_path / "outputs"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "shipped" and result["beam"] == 5
    assert result["lines"] == {"en": 4} and result["sets"] == {
        "en": {"python-docs": 2, "tatoeba": 2}
    }
    assert set(result["startup"]) == {"shipped", "ct2-int8"}  # a pass's run starts as shipped
    assert result["settings"]["rerank_backward"] in ("0", "0.2")  # off if the model reranks
    runs = result["results"]["en"]
    assert set(runs) == {"shipped", "rerank_backward", "ct2-int8"}
    for run in runs.values():
        assert run["seconds"] > 0 and run["cpu_seconds"] > 0
        assert 0 <= run["bleu"] <= 100 and 0 <= run["chrf"] <= 100
        assert set(run["per_set"]) == {"python-docs", "tatoeba"}
        assert "tok:13a" in run["signatures"][0]
    assert runs["ct2-int8"]["over_ct2_int8"] == 1.0
    assert "vs_shipped" not in runs["shipped"]
    delta = runs["rerank_backward"]["vs_shipped"]
    assert delta["low"] <= delta["delta"] <= delta["high"]
    assert runs["rerank_backward"]["bleu"] == pytest.approx(
        runs["shipped"]["bleu"] + delta["delta"], abs=0.02
    )
    outputs = tmp_path / "outputs"
    assert len((outputs / "shipped.en").read_text(encoding="utf-8").splitlines()) == 4

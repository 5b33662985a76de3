"""benchmarks/fuzz.py on the tiny model: no crash and no 5xx, and most of its HTTP requests are
well-formed enough to reach decoding (answered 200), so that it fuzzes the translator and not
only the request validation; every field of the request reaches decoding, and the server's
memory is read."""

import json

import pytest

from conftest import run_benchmark
from fanyi.serve.schemas import translate_request
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # runs benchmarks/fuzz.py against a server


def test_most_fuzzed_requests_reach_decoding_and_none_crashes(tmp_path_factory):
    model = tiny_model_dir(tmp_path_factory)
    done = run_benchmark(
        "fuzz.py", "-m", str(model), "--strings", "40", "--requests", "120", "--connections", "2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "fuzz"
    assert result["crashes"] == 0 and result["5xx"] == 0 and result["healthy_after"]
    assert result["http"]["reached_decoding"] >= 0.6
    assert result["http"]["by_kind"].get("valid 200", 0) >= 60
    fields = list(translate_request().model_json_schema()["properties"])
    assert result["http"]["fields"] == len(fields) - 1  # every one but the texts
    assert result["http"]["fields_never_decoded"] == []
    assert result["http"]["rss_mb_after_100"] and result["http"]["rss_growth"]

"""Nothing a user types is lost: paragraphs of 2–4 test sentences translate as well as the same
sentences one by one (BLEU within 2 points, length ratio within 0.02), both directions. (The
length ratio of the sentences themselves, 0.93 into Chinese, is the model's, not the paragraphs'.)

Runs ``benchmarks/long_input.py`` on the first 200 test sentences of each direction.
"""

import json

import pytest

from conftest import run_benchmark

pytestmark = pytest.mark.slow  # runs benchmarks/long_input.py (about 50 s)


@pytest.fixture(scope="module")
def result(bundled_test_pairs, tmp_path_factory):
    pairs = tmp_path_factory.mktemp("long") / "test.tsv"
    pairs.write_text("".join(f"{zh}\t{en}\n" for zh, en in bundled_test_pairs), encoding="utf-8")
    done = run_benchmark("long_input.py", "--pairs", str(pairs), "--limit", "200", "--threads", "1")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])["results"]


@pytest.mark.parametrize("to", ["en", "zh"])
def test_paragraphs_lose_nothing(result, to):
    sentences, paragraphs = result[to]["sentences"], result[to]["paragraphs"]
    assert sentences["count"] == 200 and 50 <= paragraphs["count"] <= 100
    assert paragraphs["length_ratio"] >= sentences["length_ratio"] - 0.02, (sentences, paragraphs)
    assert paragraphs["bleu"] >= sentences["bleu"] - 2.0, (sentences, paragraphs)

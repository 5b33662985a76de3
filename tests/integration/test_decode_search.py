"""benchmarks/search.py grid: greedy once, every (beam, α) of the grid, scores that match
``fanyi evaluate``'s, and the best setting's BLEU by source length in thirds."""

import json

import pytest

from conftest import run_benchmark
from fanyi.evaluate import evaluate
from fanyi.translate.translator import Translator

pytestmark = pytest.mark.slow  # runs benchmarks/search.py grid

SOURCES = [
    "你好。",
    "我饿了。",
    "他在哪里？",
    "我明天要去北京。",
    "这本书很有意思。",
    "我们应该早点回家，因为外面在下雨。",
    "你叫什么名字？",
    "我不知道他为什么没有来上课。",
    "今天天气很好。",
]
REFERENCES = [
    "Hello.",
    "I'm hungry.",
    "Where is he?",
    "I'm going to Beijing tomorrow.",
    "This book is interesting.",
    "We should go home early because it is raining outside.",
    "What's your name?",
    "I don't know why he didn't come to class.",
    "The weather is nice today.",
]


def test_grid_scores_and_length_thirds(tmp_path):
    src, ref = tmp_path / "test.zh", tmp_path / "test.en"
    src.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REFERENCES) + "\n", encoding="utf-8")
    grid = ["--beams", "1,3", "--alphas", "0.6,2.0", "--threads", "1"]
    done = run_benchmark("search.py", "grid", "--src", str(src), "--ref", str(ref), *grid)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "search" and result["measure"] == "grid"
    assert result["to"] == "en" and result["sentences"] == len(SOURCES)
    grid = [(s["beam"], s["alpha"]) for s in result["settings"]]
    assert grid == [(1, None), (3, 0.6), (3, 2.0)]  # greedy has no α: decoded once
    greedy = result["settings"][0]
    _, expected = evaluate(Translator.load(), SOURCES, [REFERENCES], beam=1)
    assert greedy["bleu"] == round(expected.bleu, 2) and greedy["chrf"] == round(expected.chrf, 2)
    assert "tok:13a" in greedy["signature"] and 0 < greedy["bp"] <= 1
    best = max(result["settings"], key=lambda s: s["bleu"])
    assert result["best"]["bleu"] == best["bleu"]
    thirds = result["by_source_length"]
    assert [t["sentences"] for t in thirds] == [3, 3, 3]
    assert thirds[0]["source_tokens"][1] <= thirds[1]["source_tokens"][0]
    assert thirds[1]["source_tokens"][1] <= thirds[2]["source_tokens"][0]

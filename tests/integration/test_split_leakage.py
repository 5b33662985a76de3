"""benchmarks/leakage.py split: a random split leaks sentences that occur in several pairs;
fanyi's leak-free split of the same pairs leaks none."""

import json

import pytest

from conftest import run_benchmark

pytestmark = pytest.mark.slow  # runs benchmarks/leakage.py split


def test_random_split_leaks_and_fanyis_does_not(tmp_path):
    # every English sentence has two Chinese translations, as many of Tatoeba's have
    rows = [
        f"Sentence number {i}.\t第{i}个句子{variant}。\tCC-BY\n"
        for i in range(300)
        for variant in ("甲", "乙")
    ]
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(rows), encoding="utf-8")
    config = tmp_path / "data.yaml"
    config.write_text(
        f"format: tsv\ntrain: {corpus}\ncolumns: {{en: 0, zh: 1}}\nnum_columns: 3\n"
        "src_lang: zh\ntgt_lang: en\ndev_size: 40\ntest_size: 100\n",
        encoding="utf-8",
    )
    done = run_benchmark("leakage.py", "split", "--data", str(config), "--seeds", "3")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "leakage" and result["measure"] == "split"
    assert result["pairs"] == 600
    assert result["fanyi_split"] == {"source_seen": 0.0, "target_seen": 0.0, "either_seen": 0.0}
    # a random test pair's English twin lands in train with probability ~(600-140)/599
    random_mean = result["random_split_mean"]
    assert random_mean["source_seen"] == 0.0  # every Chinese sentence is unique
    assert 65 < random_mean["target_seen"] < 90
    assert random_mean["either_seen"] == random_mean["target_seen"]

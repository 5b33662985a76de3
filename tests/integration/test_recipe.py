"""``fanyi recipe`` end to end on the tiny recipe: prepare → train → average (k chosen on dev) →
beam search of both directions of a bidirectional test split → sacreBLEU, ending with one JSON
line; ``--rescore``; and benchmarks/quality.py, the same road plus the host's speed."""

import json
import subprocess
import sys

import pytest

from conftest import REPO, run_benchmark
from fanyi.cli import main

pytestmark = pytest.mark.slow  # prepares, trains and scores a recipe

FLAGS = ["--threads", "1", "--no-progress"]


def fanyi_recipe(out, *flags: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "fanyi", "recipe", "tiny-test", "-o", str(out), *FLAGS]
    return subprocess.run([*command, *flags], cwd=REPO, capture_output=True, text=True)


@pytest.fixture(scope="module")
def road(tmp_path_factory):
    """One run of the tiny recipe (module-wide: it trains for half a minute)."""
    out = tmp_path_factory.mktemp("recipe")
    with pytest.MonkeyPatch.context() as mp:
        from conftest import corpora

        mp.setenv("FANYI_DATA", str(corpora()))
        done = fanyi_recipe(out, "--budget-minutes", "5")
    assert done.returncode == 0, done.stderr
    return out, json.loads(done.stdout.splitlines()[-1])


def test_the_road_from_recipe_to_scores(road):
    out, result = road
    assert result["recipe"] == "tiny-test"
    tests = result["tests"]
    assert {t["direction"] for t in tests.values()} == {"zh-en", "en-zh"}
    for name, test in tests.items():
        tokenizer = "tok:zh" if test["direction"].endswith("-zh") else "tok:13a"
        assert tokenizer in test["bleu_signature"] and "case:mixed" in test["bleu_signature"]
        assert test["chrf_signature"].startswith("nrefs:1|case:mixed")
        assert 0 <= test["bleu"] <= 100 and 0 < test["chrf"] <= 100
        assert test["sentences"] == 50  # the test split's 50 pairs, one direction each
        assert len((out / "run" / f"{name}.hyp").read_text(encoding="utf-8").splitlines()) == 50
    train = result["train"]
    assert train["steps"] == 30 and train["seconds"] > 0 and train["tgt_tokens_per_s"] > 0
    settings = result["settings"]
    assert settings["threads"] == 1
    # k of the averaged checkpoints is the one whose average decodes the dev split best
    dev_bleu = {int(k): bleu for k, bleu in settings["averaged_dev_bleu"].items()}
    assert sorted(dev_bleu) == [1, 2] and settings["averaged"] in (1, 2)
    assert dev_bleu[settings["averaged"]] == max(dev_bleu.values())
    assert settings["budget_minutes"] == 5 and settings["train_config"]["max_minutes"] == 5


def test_the_benchmark_rescores_the_run_and_records_the_host(road, data_dir):
    out, result = road
    done = run_benchmark("quality.py", "tiny-test", "-o", str(out), "--rescore", *FLAGS)
    assert done.returncode == 0, done.stderr
    rescored = json.loads(done.stdout.splitlines()[-1])
    assert rescored["benchmark"] == "quality" and rescored["settings"]["rescore"]
    assert rescored["train"]["seconds"] is None and rescored["train"]["steps"] == 30
    assert rescored["settings"]["averaged"] == result["settings"]["averaged"]
    for name, test in result["tests"].items():
        assert rescored["tests"][name]["bleu"] == test["bleu"]
    speed = rescored["machine"]["matmul_gflops"]  # the host's speed, to compare runs across hosts
    assert speed["bf16"] > 0 and speed["fp32"] > 0
    assert rescored["machine"]["torch"] and rescored["versions"]["sacrebleu"]


def test_rescore_needs_a_run(data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    assert main(["recipe", "tiny-test", "-o", str(tmp_path), "--rescore", *FLAGS]) == 2
    assert "holds no run" in capsys.readouterr().err


def test_an_existing_run_is_not_overwritten(data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "checkpoints.json").write_text("{}")
    assert main(["recipe", "tiny-test", "-o", str(tmp_path), "--max-steps", "2", *FLAGS]) == 2
    assert "already holds a run" in capsys.readouterr().err


def test_an_unknown_recipe_names_the_known_ones(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    assert main(["recipe", "no-such-recipe"]) == 2
    assert "tatoeba-bi" in capsys.readouterr().err


def test_a_missing_corpus_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    """A fresh clone without the corpora: the error names the download and the shipped slices."""
    monkeypatch.setenv("FANYI_DATA", str(tmp_path / "empty"))
    assert main(["recipe", "tiny-test", "-o", str(tmp_path), "--max-steps", "1", *FLAGS]) == 2
    error = capsys.readouterr().err
    assert "`fanyi data download tatoeba-cmn-eng` fetches it" in error
    assert "FANYI_DATA=tests/fixtures/data" in error

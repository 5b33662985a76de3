"""benchmarks/quality.py end to end on the tiny recipe: prepare → train → average → beam search
of both directions of a bidirectional test split → sacreBLEU, ending with one JSON line."""

import json
import os
import subprocess
from pathlib import Path

from conftest import run_benchmark


def _quality(data_dir: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    command = ["tiny-test", "--threads", "1", "--out", str(out), "--no-progress", *flags]
    env = {**os.environ, "FANYI_DATA": str(data_dir)}
    return run_benchmark("quality.py", *command, env=env)


def test_the_road_from_recipe_to_scores(data_dir, tmp_path):
    done = _quality(data_dir, tmp_path, "--budget-minutes", "5")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "quality" and result["recipe"] == "tiny-test"
    tests = result["tests"]
    assert {t["direction"] for t in tests.values()} == {"zh-en", "en-zh"}
    for name, test in tests.items():
        tokenizer = "tok:zh" if test["direction"].endswith("-zh") else "tok:13a"
        assert tokenizer in test["bleu_signature"] and "case:mixed" in test["bleu_signature"]
        assert test["chrf_signature"].startswith("nrefs:1|case:mixed")
        assert 0 <= test["bleu"] <= 100 and 0 < test["chrf"] <= 100
        assert test["sentences"] == 50  # the test split's 50 pairs, one direction each
        hyp = (tmp_path / "run" / f"{name}.hyp").read_text(encoding="utf-8")
        assert len(hyp.splitlines()) == 50
    train = result["train"]
    assert train["steps"] == 30 and train["seconds"] > 0 and train["tgt_tokens_per_s"] > 0
    settings = result["settings"]
    assert settings["threads"] == 1
    # k of the averaged checkpoints is the one whose average decodes the dev split best
    dev_bleu = {int(k): bleu for k, bleu in settings["averaged_dev_bleu"].items()}
    assert sorted(dev_bleu) == [1, 2] and settings["averaged"] in (1, 2)
    assert dev_bleu[settings["averaged"]] == max(dev_bleu.values())
    assert settings["budget_minutes"] == 5 and settings["train_config"]["max_minutes"] == 5
    assert result["machine"]["torch"] and result["versions"]["sacrebleu"]
    speed = result["machine"]["matmul_gflops"]  # the host's speed, to compare runs across hosts
    assert speed["bf16"] > 0 and speed["fp32"] > 0

    # --rescore: the same run averaged and scored again, without training
    again = _quality(data_dir, tmp_path, "--rescore")
    assert again.returncode == 0, again.stderr
    rescored = json.loads(again.stdout.splitlines()[-1])
    assert rescored["settings"]["rescore"] and rescored["train"]["seconds"] is None
    assert (
        rescored["train"]["steps"] == 30
        and rescored["settings"]["averaged"] == settings["averaged"]
    )
    for name, test in tests.items():
        assert rescored["tests"][name]["bleu"] == test["bleu"]


def test_rescore_needs_a_run(data_dir, tmp_path):
    done = _quality(data_dir, tmp_path, "--rescore")
    assert done.returncode != 0 and "holds no run" in done.stderr


def test_an_existing_run_is_not_overwritten(data_dir, tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "checkpoints.json").write_text("{}")
    done = _quality(data_dir, tmp_path, "--max-steps", "2")
    assert done.returncode != 0 and "already holds a run" in done.stderr

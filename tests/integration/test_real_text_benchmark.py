"""benchmarks/real_text.py on the tiny model: every held-out set that `fanyi data` wrote (the
wider test-only sets included), each direction scored as the translator translates it, sets
without files skipped, one JSON line."""

import importlib
import json

import pytest

from conftest import REPO, run_benchmark
from fanyi import Translator
from fanyi.scores import score
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # runs benchmarks/real_text.py

PAIRS = [("I am fine.", "我很好。"), ("Where is he?", "他在哪里？"), ("Thank you.", "谢谢。")]


def write(path, pairs):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{en}\t{zh}\tnote\n" for en, zh in pairs), encoding="utf-8")


def test_real_text_scores_each_set_both_ways(tmp_path_factory, tmp_path):
    model = tiny_model_dir(tmp_path_factory)
    sources = tmp_path / "sources"
    write(sources / "python-docs" / "test.tsv", PAIRS)  # a rebuilt split: not what is scored
    write(sources / "wmt-news" / "newstest2019.zh-en.tsv", PAIRS[:2])
    write(sources / "wider-tests" / "flores200-devtest.tsv", PAIRS[1:])
    write(sources / "wider-tests" / "generaltest2022.en-zh.tsv", PAIRS[:1])
    write(sources / "wmt23" / "generaltest2023.zh-en.tsv", PAIRS[:3])
    write(tmp_path / "held-out.tsv", PAIRS)  # another test split for django-docs
    done = run_benchmark(
        "real_text.py", "-m", str(model), "--sources", str(sources),
        "--tatoeba", str(model.parents[1] / "data"), "--limit", "4", "--beam", "2", "--dtype", "fp32", "--device", "cpu",
        "--test-file", f"django-docs={tmp_path / 'held-out.tsv'}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    emitted = json.loads(done.stdout.splitlines()[-1])
    result = emitted["results"]
    assert emitted["device"] == "cpu"
    assert result["newstest2020"] == {"skipped": True} and result["3am"] == {"skipped": True}
    assert set(result["newstest2019"]) == {"→en"} and result["newstest2019"]["→en"]["lines"] == 2
    assert set(result["python-docs"]) == {"→en", "→zh"} and set(result["tatoeba"]) == {"→en", "→zh"}
    assert {to: r["lines"] for to, r in result["flores200-devtest"].items()} == {"→en": 2, "→zh": 2}
    assert set(result["generaltest2022"]) == {"→zh"} and result["tico19-test"] == {"skipped": True}
    assert {to: r["lines"] for to, r in result["generaltest2023"].items()} == {"→en": 3}
    assert result["news-commentary"] == {"skipped": True}
    assert {to: r["lines"] for to, r in result["django-docs"].items()} == {"→en": 3, "→zh": 3}
    # python-docs: the 200 pairs the bundled model held out, not sources/python-docs/test.tsv
    assert emitted["test_files"]["python-docs"].endswith("tests/fixtures/data/python-docs/test.tsv")
    assert {to: r["lines"] for to, r in result["python-docs"].items()} == {"→en": 4, "→zh": 4}
    left_out = {name: 32 * (name == "python-docs") for name in emitted["test_files"]}
    assert emitted["left_out_lines"] == left_out
    assert emitted["test_files"]["3am"] == str(sources / "3am" / "test.tsv")
    expected = Translator.load(model, dtype="fp32")([en for en, _ in PAIRS], to="zh", beam=2)
    bleu = score(expected, [[zh for _, zh in PAIRS]], "zh").bleu
    assert result["django-docs"]["→zh"]["bleu"] == round(bleu, 2)
    assert "tok:zh" in result["django-docs"]["→zh"]["signature"]


def test_python_docs_leaves_out_the_pairs_a_stage_trained_on(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    real_text = importlib.import_module("real_text")
    fixture = REPO / "tests" / "fixtures" / "data" / "python-docs" / "test.tsv"
    rows = [line.split("\t")[:2] for line in fixture.read_text(encoding="utf-8").splitlines()]
    kept = real_text.both_ways(fixture)["zh"]
    assert len(rows) == 200 and len(kept) == 168
    assert tuple(rows[37]) not in kept and tuple(rows[36]) in kept  # line 38 is seen, 37 not
    copy = tmp_path / "test.tsv"  # the same lines elsewhere: another test file, read whole
    copy.write_text(fixture.read_text(encoding="utf-8"), encoding="utf-8")
    assert len(real_text.both_ways(copy)["zh"]) == 200


def test_a_test_file_without_a_known_name_is_a_one_line_error():
    done = run_benchmark("real_text.py", "--test-file", "python-docs")  # no =PATH
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "give NAME=PATH" in done.stderr.strip().splitlines()[-1]

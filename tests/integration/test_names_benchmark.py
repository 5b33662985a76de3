"""benchmarks/names.py: the phrase set's criterion on hand-made cases, the set's fixture as the
benchmark reads it, and a run on the tiny model: each set each way, off and on, figures that
agree with themselves, one JSON line."""

import importlib
import json
import re

import pytest

from conftest import REPO, run_benchmark
from fanyi.text.lang import to_simplified
from tiny_translator import tiny_model_dir

PHRASES = REPO / "tests" / "fixtures" / "data" / "phrases"


@pytest.fixture
def names(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    return importlib.import_module("names")


@pytest.mark.parametrize(
    "translation, items, right",
    [
        ("My name is Wang Xiaoming.", "My name is|I'm|I am; Wang Xiaoming", True),
        ("I called the Wang Xiaoming.", "My name is|I'm|I am; Wang Xiaoming", False),
        ("i’m wang xiaoming", "My name is|I'm|I am; Wang Xiaoming", True),  # any case, ’ as '
        ("Li Weiwei is my colleague.", "Li Wei; colleague|colleagues", False),  # whole words
        ("Liwei is my colleagues.", "Li Wei; colleague|colleagues", False),
        ("我的朋友 李伟 在微软工作。", "李伟; 微软", True),  # spaces aside
        ("我的朋友李菲在微软上工作。", "李伟; 微软", False),
        ("我认识Tom。", "认识|知道; 汤姆|Tom", True),
        ("Long time, no see!", "long time no see", True),  # punctuation aside
        ("U.S. stocks rose.", "US|United States", True),
        ("Bye bye.", "bye-bye", True),
    ],
)
def test_a_translation_is_correct_when_it_holds_every_item(names, translation, items, right):
    assert names.correct(translation, items) is right


def test_the_phrase_set_is_split_and_every_row_is_scored_into_english(names):
    lines = {split: names.phrases(PHRASES / f"{split}.tsv", "en", 0) for split in ("dev", "test")}
    assert len(lines["dev"]) + len(lines["test"]) >= 300
    assert not {line.source for line in lines["dev"]} & {line.source for line in lines["test"]}
    into_zh = names.phrases(PHRASES / "test.tsv", "zh", 0)
    assert {line.part for line in into_zh} == {"phrase", "term", "template"}  # news: into en
    assert all(line.items and line.reference for line in [*lines["test"], *into_zh])


def test_no_row_is_a_sentence_of_the_held_out_tatoeba_test_pairs():
    def comparable(text):
        return re.sub(r"[\s\W_]", "", to_simplified(text)).lower()

    tatoeba = REPO / "tests" / "fixtures" / "data" / "tatoeba-cmn-eng" / "bundled-test.txt"
    held_out = {
        comparable(side)
        for line in tatoeba.read_text(encoding="utf-8").splitlines()
        for side in line.split("\t")[:2]
    }
    for split in ("dev", "test"):
        rows = (PHRASES / f"{split}.tsv").read_text(encoding="utf-8").splitlines()[1:]
        assert not {comparable(side) for row in rows for side in row.split("\t")[:2]} & held_out


@pytest.mark.slow  # runs benchmarks/names.py
def test_each_set_is_translated_both_ways_off_and_on(tmp_path_factory):
    model = tiny_model_dir(tmp_path_factory)
    done = run_benchmark("names.py", "-m", str(model), "--lines", "3", "--threads", "1")
    assert done.returncode == 0, done.stderr
    emitted = json.loads(done.stdout.splitlines()[-1])
    assert emitted["benchmark"] == "names" and emitted["lines"] == 3
    results = emitted["results"]
    sets = ("Tatoeba test", "python-docs test", "phrases test")
    assert set(results) == {f"{s} {way}" for s in sets for way in ("zh→en", "en→zh")}
    for name, result in results.items():
        assert result["lines"] <= 3 and result["reference_names"] <= result["names"], name
        for way in ("off", "on"):
            figures = result.get(way) if result["lines"] else {"names_rendered": 0}
            assert 0 <= figures["names_rendered"] <= result["names"], name
    for way in ("zh→en", "en→zh"):
        phrases = results[f"phrases test {way}"]
        assert phrases["lines"] == 3 and sum(phrases["lines_by_part"].values()) == 3
        for on in (phrases["off"], phrases["on"]):
            assert sum(on["correct_by_part"].values()) == on["correct"] <= 3
            assert on["signature"].startswith("nrefs:1") and 0 <= on["chrf"] <= 100


def test_the_real_set_deals_a_line_of_each_dev_set_in_turn(names, tmp_path):
    for folder, rows in (("wmt-news", ["A\t甲", "B\t乙"]), ("3am", ["C\t丙"])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "dev.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    lines = names.real_lines(tmp_path, "en", 0)
    assert [(line.source, line.reference) for line in lines] == [
        ("甲", "A"),
        ("丙", "C"),
        ("乙", "B"),
    ]
    assert (
        len(names.real_lines(tmp_path, "zh", 2)) == 2
        and names.real_lines(tmp_path / "x", "en", 5) == []
    )


def test_the_real_test_sets_are_the_held_out_ones(names, tmp_path):
    news, wider, captions = tmp_path / "wmt-news", tmp_path / "wider-tests", tmp_path / "3am"
    for folder in (news, wider, captions):
        folder.mkdir()
    (news / "newstest2020.zh-en.tsv").write_text("A\t甲\n", encoding="utf-8")
    (wider / "flores200-devtest.tsv").write_text("B\t乙\n", encoding="utf-8")
    (captions / "test.tsv").write_text("C\t丙\n", encoding="utf-8")
    (captions / "dev.tsv").write_text("D\t丁\n", encoding="utf-8")  # dev: never a test line
    lines = names.real_lines(tmp_path, "en", 0, "test")
    assert [line.source for line in lines] == ["甲", "乙", "丙"]
    assert [line.source for line in names.real_lines(tmp_path, "en", 0, "dev")] == ["丁"]

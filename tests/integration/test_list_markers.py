"""A list item's marker reaches the model apart from the item and is written back in front of
every candidate, unless ``keep_list_markers`` is off or a target prefix starts the translation
(``list_markers.py``)."""

import json

import pytest

from conftest import run_benchmark
from fanyi import Translator
from tiny_translator import tiny_model_dir

ITEM, BARE = "1. Tom is here.", "Tom is here."


@pytest.fixture(scope="module")
def translator(tmp_path_factory):
    return Translator.load(tiny_model_dir(tmp_path_factory), dtype="fp32")


def test_the_model_reads_the_item_without_its_marker(translator):
    options = translator.text_options
    off = options.replace(keep_list_markers=False)
    pieces = translator.text.pieces
    assert pieces(ITEM, "zh", options) == pieces(BARE, "zh", options)
    assert pieces(ITEM, "zh", off) != pieces(BARE, "zh", off)


def test_every_candidate_starts_with_the_marker(translator):
    (result,) = translator.translate([ITEM], to="zh", beam=3, n_best=3)
    bare = translator.translate([BARE], to="zh", beam=3, n_best=3)[0]
    assert [c.text for c in result.candidates] == [f"1. {c.text}" for c in bare.candidates]
    (chinese,) = translator.translate(["一、汤姆在这里。"], to="en")
    assert chinese.text == "1. " + translator("汤姆在这里。", to="en")


def test_off_or_under_a_target_prefix_the_marker_is_read_with_the_item(translator):
    off = translator(ITEM, to="zh", keep_list_markers=False)
    assert off == translator(ITEM, to="zh", split_sentences=False, keep_list_markers=False)
    held = translator(ITEM, to="zh", target_prefix="汤姆")
    assert held.startswith("汤姆"), held


@pytest.mark.slow  # runs benchmarks/levers.py --lever list-markers
def test_the_benchmark_translates_list_items_three_ways(tmp_path_factory, tmp_path):
    news = tmp_path / "wmt-news"
    news.mkdir()
    rows = [
        ("1. Tom is here.", "1.汤姆在这里。"),
        ("He left.", "他走了。"),
        ("We ate.", "我们吃了。"),
    ]
    (news / "dev.tsv").write_text("".join(f"{en}\t{zh}\tnt17\n" for en, zh in rows), "utf-8")
    model = tiny_model_dir(tmp_path_factory)
    args = ["-m", str(model), "--sources", str(tmp_path), "--threads", "1", "--lines", "2"]
    done = run_benchmark("levers.py", "--lever", "list-markers", *args)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])["results"]
    assert results["newstest2020 en→zh"] == "missing"
    for direction, tok in (("en→zh", "tok:zh"), ("zh→en", "tok:13a")):
        scored = results[f"newstest2017 (dev) {direction}"]
        assert scored["numbered"]["lines"] == 2 and scored["real"]["lines"] == 1
        for way in ("own_sentence", "with_item", "apart"):
            assert tok in scored["numbered"][way]["signature"]

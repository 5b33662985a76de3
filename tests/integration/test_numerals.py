"""A number in groups of three digits reaches the model as plain digits and comes back as the
source wrote it, and digits against Han characters reach it set apart, unless ``keep_numbers``
is off (``numerals.py``); the benchmark (``levers.py --lever numbers``) scores the WMT lines
that hold one both ways."""

import json

import pytest

from conftest import run_benchmark
from fanyi import Translator
from tiny_translator import tiny_model_dir

GROUPED, PLAIN = "The city has 1,400,000 residents.", "The city has 1400000 residents."


@pytest.fixture(scope="module")
def translator(tmp_path_factory):
    return Translator.load(tiny_model_dir(tmp_path_factory), dtype="fp32")


def test_the_model_reads_plain_digits(translator):
    options = translator.text_options
    off = options.replace(keep_numbers=False)
    pieces = translator.text.pieces
    assert pieces(GROUPED, "zh", options) == pieces(PLAIN, "zh", options)
    assert pieces(GROUPED, "zh", off) != pieces(PLAIN, "zh", off)


def test_the_model_reads_digits_set_apart_from_han_characters(translator):
    options = translator.text_options
    off = options.replace(keep_numbers=False)
    pieces = translator.text.pieces
    against, apart = "会议于2024年3月1日举行。", "会议于 2024 年 3 月 1 日举行。"
    assert pieces(against, "en", options) == pieces(apart, "en", options)
    assert pieces(against, "en", off) != pieces(apart, "en", off)


@pytest.mark.parametrize("text", [GROUPED, f"{GROUPED} It grows."])  # one sentence, and two
def test_the_translation_writes_the_number_as_the_source_did(translator, text):
    """The translation is made to start with the plain digits (a target prefix), as a model
    that copies the number writes them."""
    kept = translator(text, to="zh", target_prefix="1400000")
    assert kept.startswith("1,400,000"), kept
    off = translator(text, to="zh", target_prefix="1400000", keep_numbers=False)
    assert off.startswith("1400000"), off


def test_every_candidate_of_an_n_best_list_is_written_back(translator):
    (found,) = translator.translate([GROUPED], to="zh", target_prefix="1400000", beam=3, n_best=3)
    assert len(found.candidates) == 3
    assert all(c.text.startswith("1,400,000") for c in found.candidates), found.candidates


@pytest.mark.slow  # runs benchmarks/levers.py --lever numbers
def test_the_benchmark_scores_the_lines_with_numbers_both_ways(tmp_path_factory, tmp_path):
    news = tmp_path / "wmt-news"
    news.mkdir()
    rows = [(GROUPED, "这座城市有1,400,000名居民。"), ("No number here.", "这里没有数字。")]
    text = "".join(f"{en}\t{zh}\tWMT\n" for en, zh in rows)
    (news / "newstest2020.en-zh.tsv").write_text(text, encoding="utf-8")
    model = tiny_model_dir(tmp_path_factory)
    args = ["-m", str(model), "--sources", str(tmp_path), "--threads", "1"]
    done = run_benchmark("levers.py", "--lever", "numbers", *args)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])["results"]
    assert results["newstest2019 en→zh"] == "missing"
    scored = results["newstest2020 en→zh"]
    assert scored["lines"] == 1 and scored["numbers"] == 1  # the line with a number only
    for way in ("as_written", "plain_digits"):
        assert "tok:zh" in scored[way]["signature"] and 0 <= scored[way]["numbers_kept"] <= 1

"""``fanyi truecase``: the model's table of words written in lower case, from its training text;
with it a headline in Title Case reaches the model as the same sentence in sentence case would,
unless ``recase_headlines`` is off."""

import json
import shutil

import pytest

from conftest import run_benchmark
from fanyi import Translator
from fanyi.cli import main
from tiny_translator import tiny_model_dir

HEADLINE, SENTENCE = (
    "The Next Big Labor Strike Hits Oregon",
    "The next big labor strike hits Oregon",
)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A copy of the tiny zh⇄en model, with the table of a (made-up) training text."""
    root = tmp_path_factory.mktemp("truecase")
    copy, text = root / "model", root / "train.txt"
    shutil.copytree(tiny_model_dir(tmp_path_factory), copy)
    lines = [
        "<2zh> A big strike: the labor of many.",
        "Next came the next strike, which hits hard.",
    ]
    text.write_text("\n".join(lines * 2) + "\n<2en> 罢工。\n", encoding="utf-8")
    assert main(["truecase", str(text), "-m", str(copy)]) == 0
    return copy


def test_the_table_is_written_into_the_model(model):
    words = (model / "truecase.txt").read_text(encoding="utf-8").split()
    assert {"big", "strike", "labor", "next", "hits"} <= set(words)
    assert "zh" not in words  # the tags are not words


def test_a_headline_reads_as_its_sentence(model):
    translator = Translator.load(model)
    options = translator.text_options
    off = options.replace(recase_headlines=False)
    pieces = translator.text.pieces
    assert pieces(HEADLINE, "zh", options) == pieces(SENTENCE, "zh", options)
    assert pieces(HEADLINE, "zh", off) != pieces(SENTENCE, "zh", off)


def test_only_a_latin_script_source_is_recased(model):
    translator = Translator.load(model)
    text, options = translator.text, translator.text_options
    sentences = lambda source, to: text.reading(source, to, options).sentences()  # noqa: E731
    assert sentences("Big Strike Hits 俄勒冈", "zh") == ["Big strike hits 俄勒冈"]
    assert sentences("我喜欢 Big Strike Hits", "en") == ["我喜欢 Big Strike Hits"]


def test_no_model_no_table(tmp_path, capsys):
    text = tmp_path / "train.txt"
    text.write_text("a line\n", encoding="utf-8")
    assert main(["truecase", str(text), "-m", str(tmp_path)]) == 2
    assert "not a fanyi model directory" in capsys.readouterr().err
    assert not (tmp_path / "truecase.txt").exists()


@pytest.mark.slow  # runs benchmarks/levers.py --lever headlines
def test_the_benchmark_scores_the_headlines_both_ways(model, tmp_path):
    news = tmp_path / "wmt-news"
    news.mkdir()
    rows = [(HEADLINE, "下一次大罢工冲击俄勒冈州"), ("A sentence, not a headline.", "一句话。")]
    text = "".join(f"{en}\t{zh}\tWMT\n" for en, zh in rows)
    (news / "newstest2020.en-zh.tsv").write_text(text, encoding="utf-8")
    args = ["-m", str(model), "--sources", str(tmp_path), "--threads", "1"]
    done = run_benchmark("levers.py", "--lever", "headlines", *args)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])["results"]
    assert results["newstest2019"] == "missing"
    scored = results["newstest2020"]
    assert scored["lines"] == 1  # the headline only
    for way in ("as_written", "sentence_case"):
        assert "tok:zh" in scored[way]["signature"] and scored[way]["english_words"] >= 0


def test_a_ctranslate2_export_keeps_the_table(model, tmp_path):
    out = tmp_path / "ct2"
    assert main(["export", str(model), "--format", "ctranslate2", "--output", str(out)]) == 0
    assert (out / "truecase.txt").read_bytes() == (model / "truecase.txt").read_bytes()


def test_prepare_writes_the_table_and_every_model_trained_on_it_carries_it(tmp_path_factory):
    """The tiny model's data directory (``fanyi prepare``), its run's best checkpoint and an
    average of it hold the same table."""
    trained = tiny_model_dir(tmp_path_factory)
    data = tmp_path_factory.getbasetemp() / "tiny-zh-en" / "data"
    table = (data / "truecase.txt").read_text(encoding="utf-8")
    assert {"the", "is"} <= set(table.split()) and "Tom" not in table
    assert (trained / "truecase.txt").read_text(encoding="utf-8") == table
    averaged = tmp_path_factory.mktemp("averaged") / "model"
    run = tmp_path_factory.getbasetemp() / "tiny-zh-en" / "run"
    assert main(["average", str(run), "--last", "1", "-o", str(averaged)]) == 0
    assert (averaged / "truecase.txt").read_text(encoding="utf-8") == table

"""Inline code reaches the model without its backticks and gets them back where the translation
copies it, unless ``keep_code`` is off (``code_spans.py``); the benchmark scores documentation
lines with their code put back in backticks, both ways."""

import json

import pytest

from conftest import run_benchmark
from fanyi import Translator
from tiny_translator import tiny_model_dir

QUOTED, BARE = "Tom uses `print()` here.", "Tom uses print() here."


@pytest.fixture(scope="module")
def translator(tmp_path_factory):
    return Translator.load(tiny_model_dir(tmp_path_factory), dtype="fp32")


def test_the_model_reads_the_code_bare(translator):
    options = translator.text_options
    off = options.replace(keep_code=False)
    pieces = translator.text.pieces
    assert pieces(QUOTED, "zh", options) == pieces(BARE, "zh", options)
    assert pieces(QUOTED, "zh", off) != pieces(BARE, "zh", off)


def test_the_translation_gives_the_code_its_backticks_back(translator):
    """The translation is made to start with the bare code (a target prefix), as a model that
    copies it writes it."""
    kept = translator(QUOTED, to="zh", target_prefix="print()")
    assert kept.startswith("`print()`"), kept
    off = translator(QUOTED, to="zh", target_prefix="print()", keep_code=False)
    assert off.startswith("print()") and not off.startswith("`"), off


def test_the_attention_maps_read_the_source_as_the_translation_did(translator):
    maps = translator.cross_attention(QUOTED, to="zh")
    assert maps.weights.size(-1) == len(
        translator.text.pieces(BARE, "zh", translator.text_options)[0]
    )


@pytest.mark.slow  # runs benchmarks/levers.py --lever code
def test_the_benchmark_puts_the_code_in_backticks_and_scores_three_ways(tmp_path_factory, tmp_path):
    docs = tmp_path / "python-docs"
    docs.mkdir()
    rows = [
        ("Call os.path.join() to build paths.", "调用 os.path.join() 来构建路径。"),
        ("No code here.", "这里没有代码。"),
    ]
    (docs / "dev.tsv").write_text("".join(f"{en}\t{zh}\tpy\n" for en, zh in rows), "utf-8")
    model = tiny_model_dir(tmp_path_factory)
    args = ["-m", str(model), "--sources", str(tmp_path), "--threads", "1"]
    done = run_benchmark("levers.py", "--lever", "code", *args)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])["results"]
    assert results["django-docs/dev.tsv en→zh"] == "missing"
    for direction, tok in (("en→zh", "tok:zh"), ("zh→en", "tok:13a")):
        scored = results[f"python-docs/dev.tsv {direction}"]
        assert scored["lines"] == 1 and scored["spans"] == 1  # the line with code only
        for way in ("as_written", "bare", "held"):
            assert tok in scored[way]["signature"] and 0 <= scored[way]["spans_given_back"] <= 1
    # held to it, the code comes back (into English the tiny model glues it to its gibberish
    # letters, "iiios.path.join()", where requote finds no whole word)
    assert results["python-docs/dev.tsv en→zh"]["held"]["spans_given_back"] == 1

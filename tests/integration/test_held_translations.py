"""Translations held to phrases (``decode/constraints.py``) as a user asks for them: the Python
API's ``constraints``, ``keep_links``, ``fanyi translate --constraint/--constraints`` and the
HTTP API's ``constraints``, on a tiny trained model; the benchmark on fixture lines."""

import subprocess
import sys

import pytest

from conftest import benchmark_on_rows
from fanyi import Translator
from fanyi.serve import Limits, create_app
from fanyi.text.numerals import whole
from tiny_translator import post, tiny_model_dir

TEXTS = ["我很好。", "Thank you."]
PHRASES = [["Tom", "here"], ["车站"]]  # the tiny model runs "Tom" and "station" into one word
LINK = "Write to tom.smith@example.com today."


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def translator(model):
    return Translator.load(model, dtype="fp32")


def test_each_translation_holds_its_phrases(translator):
    free = translator.translate(TEXTS, beam=3)
    held = translator.translate(TEXTS, beam=3, constraints=PHRASES)
    for f, h, phrases in zip(free, held, PHRASES, strict=True):
        assert not all(p in f.text for p in phrases), f.text  # else nothing was tested
        assert all(p in h.text for p in phrases) and h.error is None, h.text


def test_a_translation_that_holds_its_phrases_already_is_left_as_it_is(translator):
    texts = ["Thank you.", "他在哪里？"]
    free = translator(texts, beam=3, hold_names=False)  # only the phrases given here
    words = [[t.strip()[:3]] for t in free]
    assert all(w[0].strip() for w in words), free
    assert translator(texts, beam=3, constraints=words, hold_names=False) == free


def test_n_best_candidates_all_hold_them(translator):
    (result,) = translator.translate(TEXTS[:1], beam=4, n_best=3, constraints=PHRASES[:1])
    assert len(result.candidates) == 3
    assert all("Tom" in c.text and "here" in c.text for c in result.candidates)


def test_the_held_search_keeps_its_own_beam(translator, monkeypatch):
    from fanyi.decode import held_batch

    widths, search = [], held_batch._batched

    def spy(model, task, constraints, anywhere):
        widths.append(task.options.beam)
        return search(model, task, constraints, anywhere)

    monkeypatch.setattr(held_batch, "_batched", spy)
    for asked, n_best, rows in ((0, 1, 4), (2, 1, 2), (2, 3, 3)):  # never under the n-best
        widths.clear()
        (held,) = translator.translate(
            TEXTS[:1], beam=4, n_best=n_best, constrained_beam=asked, constraints=PHRASES[:1]
        )
        assert widths and set(widths) == {rows}, (asked, widths)
        assert all(p in held.text for p in PHRASES[0]) and 1 <= len(held.candidates) <= n_best


def test_a_link_is_copied_as_written(translator):
    assert "tom.smith@example.com" in translator(LINK, to="zh")
    options = translator.text_options
    assert options.keep_links and translator.translate([LINK], to="zh", keep_links=False)


def test_inline_code_is_held_as_written(translator):
    text, code = "Run `tom_station --fast` now.", "`tom_station --fast`"
    assert code in translator(text, to="zh"), translator(text, to="zh")
    assert code not in translator(text, to="zh", hold_code=False)  # else nothing was tested
    assert "tom_station --fast" not in translator(text, to="zh", keep_code=False, hold_code=True)
    mostly_code = "Run `tom_a` then `tom_b` then `tom_c` now."  # more spans than are held
    assert translator(mostly_code, to="zh") == translator(mostly_code, to="zh", hold_code=False)


@pytest.mark.parametrize(
    "text, to, numbers",
    [
        ("会议于2023年举行。", "en", ["2023"]),
        ("The price is $1,299.99.", "zh", ["1,299.99"]),
    ],
)
def test_each_number_a_translation_keeps_as_digits_is_held(translator, text, to, numbers):
    translation = translator(text, to=to)
    assert all(whole(n, translation) for n in numbers), translation


def test_a_date_is_held_as_the_other_language_writes_it(translator):
    translation = translator("会议于2023年8月11日举行。", to="en")
    assert "August 11, 2023" in translation, translation
    free = translator("会议于8月11日举行。", to="en", hold_dates=False, hold_numbers=False)
    assert "August" not in free  # the tiny model knows no month
    assert "2023年8月11日" in translator("The meeting was on August 11, 2023.", to="zh")


def test_what_the_translator_holds_by_itself_never_costs_a_text(translator):
    figures = " ".join(str(1000 + i) for i in range(60))  # a table row: too many to hold
    for text, options in [(LINK, {"sampling": True, "seed": 1}), (figures, {})]:
        (result,) = translator.translate([text], to="zh", **options)
        assert result.error is None and result.text, result
    with pytest.raises(ValueError, match="not sampling"):
        translator.translate([TEXTS[0]], sampling=True, constraints=[["Tom"]])


@pytest.mark.parametrize(
    "text, phrases, message",
    [
        ("我很好。你呢？", ["Tom"], "one sentence; this text has 2"),
        ("我很好。", ["  "], "holds no text"),
    ],
)
def test_a_text_whose_phrases_cannot_hold_fails_alone(translator, text, phrases, message):
    results = translator.translate([text, "Thank you."], constraints=[phrases, None])
    assert message in (results[0].error or "")
    assert results[1].error is None and results[1].text


@pytest.mark.parametrize("bad", ["Tom", [["Tom"], ["x"]], [1], ["Tom"]])
def test_constraints_of_the_wrong_shape_are_refused(translator, bad):
    with pytest.raises(ValueError, match="constraints needs"):
        translator.translate(["我很好。"], constraints=bad)


def test_the_command_reads_phrases_from_flags_and_from_each_line(model, translator):
    command = [sys.executable, "-m", "fanyi", "translate", "-m", str(model), "--threads", "1"]
    command += ["--dtype", "fp32", "--beam", "3"]
    lines = "我很好。\tTom\tstation\n我很好。你呢？\tTom\nThank you.\n"
    done = subprocess.run(
        [*command, "--constraints", "--constraint", "车站"],
        input=lines.encode(), capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    out = done.stdout.decode().split("\n")
    assert done.returncode == 1 and "line 2: constraints: they hold for one sentence" in (
        done.stderr.decode()
    )
    assert out[0] == translator("我很好。", beam=3, constraints=[["Tom", "station", "车站"]])
    assert out[1] == "" and "车站" in out[2]
    both = subprocess.run([*command, "--tsv", "--constraints"], capture_output=True, check=False)
    assert both.returncode == 2 and b"not allowed with" in both.stderr


def test_the_http_api_holds_each_text_to_its_phrases(translator):
    app = create_app(translator, Limits(max_chars=200, max_texts=8, max_body=20_000, max_beam=5))
    response = post(app, {"text": TEXTS, "beam": 3, "constraints": PHRASES})
    assert response.status_code == 200, response.text
    got = [r["candidates"][0]["text"] for r in response.json()["translations"]]
    assert got == translator(TEXTS, beam=3, constraints=PHRASES)
    for body, status, message in [
        ({"constraints": [["Tom"]]}, 422, "one entry per text (2)"),
        ({"constraints": [["x" * 201], None]}, 413, "constraints[0] has 201 characters"),
        ({"constraints": [["Tom"], [3]]}, 422, "constraints"),
        ({"constraints": [["Tom"], None], "sampling": True}, 422, "not sampling"),
    ]:
        response = post(app, {"text": TEXTS, **body})
        assert response.status_code == status and message in response.text, response.text
    empty = post(app, {"text": TEXTS, "constraints": [["Tom"], [""]]})  # that text's error
    assert empty.status_code == 200, empty.text
    assert empty.json()["translations"][1]["error"] == "constraints: '' holds no text"


@pytest.mark.slow  # runs benchmarks/levers.py --lever links
def test_the_benchmark_scores_lines_with_links_off_and_on(model, tmp_path):
    rows = [
        ("See https://docs.python.org/3/ for more.", "更多内容见 https://docs.python.org/3/ 。"),
        ("No link here.", "这里没有链接。"),
        ("Mail bob@example.org now.", "现在给 bob@example.org 写信。"),
    ]
    args = ["-m", str(model), "--threads", "1"]
    results = benchmark_on_rows("levers.py --lever links", tmp_path, "python-docs", rows, *args)[
        "results"
    ]
    assert results["test django-docs/test.tsv en→zh"] == "missing"
    for direction in ("en→zh", "zh→en"):
        scored = results[f"dev python-docs/dev.tsv {direction}"]
        assert scored["lines"] == 2 and scored["links"] == 2
        assert scored["on"]["links_copied"] == 2 >= scored["off"]["links_copied"]


@pytest.mark.slow  # runs benchmarks/levers.py --lever dates
def test_the_benchmark_scores_lines_with_dates_off_and_on(model, tmp_path):
    rows = [
        ("The fair opens on August 11.", "8月11日，博览会开幕。"),
        ("No date here.", "这里没有日期。"),
        ("He left in August 2014.", "2014年8月，他离开了。"),
    ]
    args = ["-m", str(model), "--threads", "1"]
    results = benchmark_on_rows("levers.py --lever dates", tmp_path, "wmt-news", rows, *args)[
        "results"
    ]
    assert results["newstest2019 zh→en"] == "missing"
    scored = results["newstest2017 (dev) zh→en"]
    assert scored["lines"] == 2 and scored["dates"] == 2 and scored["reference_names"] == 2
    assert scored["held"]["dates_named"] == 2 >= scored["free"]["dates_named"]

"""``fanyi translate`` as a user writes its languages and reads its output: ``--to`` and
``--from`` in any code, a mixed line going the way most of its words say, a line already in the
language asked written as it is, and ``--format jsonl``."""

import itertools
import json

import pytest

from fanyi import Translator
from fanyi.cli import main
from tiny_translator import tiny_model_dir

CALLS = itertools.count()  # each call writes a file of its own
LINES = ["I met 王小明 yesterday.", "我的朋友 Li Wei 来自 Boston。", "", "Thank you."]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def translator(model_dir) -> Translator:
    return Translator.load(model_dir, dtype="fp32")


def translate(model_dir, tmp_path, *flags: str, lines=LINES) -> list[str]:
    n = next(CALLS)
    source, output = tmp_path / f"in{n}.txt", tmp_path / f"out{n}.txt"
    source.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    args = ["translate", "-m", str(model_dir), "--threads", "1", "--dtype", "fp32", "--beam", "2"]
    assert main([*args, "-i", str(source), "-o", str(output), *flags]) == 0
    return output.read_text(encoding="utf-8").splitlines()


def test_jsonl_gives_one_object_per_line(model_dir, tmp_path, translator):
    rows = [json.loads(line) for line in translate(model_dir, tmp_path, "--format", "jsonl")]
    assert [row["line"] for row in rows] == [1, 2, 3, 4]
    assert [row["source"] for row in rows] == LINES
    assert [row["translation"] for row in rows] == translator(LINES, beam=2)
    assert [(row["from"], row["to"]) for row in rows] == [
        ("en", "zh"),
        ("zh", "en"),
        ("en", "zh"),  # an empty line: read as the Latin-script side
        ("en", "zh"),
    ]
    first = translator.translate(LINES[:1], beam=2)[0]
    assert rows[0]["score"] == pytest.approx(first.candidates[0].score, abs=1e-4)
    assert all(row["error"] is None and len(row["candidates"]) == 1 for row in rows)


def test_jsonl_holds_the_n_best_list(model_dir, tmp_path):
    flags = ("--format", "jsonl", "--n-best", "2")
    rows = [json.loads(line) for line in translate(model_dir, tmp_path, *flags, lines=["你好。"])]
    (row,) = rows  # one object per input line, whatever --n-best is
    scores = [c["score"] for c in row["candidates"]]
    assert len(scores) == 2 and scores == sorted(scores, reverse=True)
    assert (row["translation"], row["score"]) == (row["candidates"][0]["translation"], scores[0])


def test_to_and_from_take_the_codes_people_write(model_dir, tmp_path, translator):
    english = ["The software is fine.", "Good morning."]
    taiwan = translate(model_dir, tmp_path, "--to", "zh-TW", lines=english)
    assert taiwan == translator(english, to="zh-TW", beam=2)
    assert translate(model_dir, tmp_path, "--to", "ZH-hant", lines=english) == translator(
        english, to="zh-Hant", beam=2
    )
    assert translate(model_dir, tmp_path, "--to", "en-US", lines=english) == english  # as it is
    forced = translate(model_dir, tmp_path, "--from", "zh", "--to", "eng", lines=["Boston"])
    assert forced == translator(["Boston"], source_lang="zh", to="en", beam=2)


def test_a_language_the_model_lacks_is_one_line(model_dir, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("hello\n", encoding="utf-8")
    for flag in ("--to", "--from"):
        status = main(["translate", "-m", str(model_dir), "-i", str(source), flag, "fr"])
        err = capsys.readouterr().err.strip()
        assert status == 2 and "\n" not in err and "this model translates" in err, err

"""A user's glossary as a user gives it: the Python API's ``glossary``, ``fanyi translate
--glossary FILE`` and the HTTP field, on a tiny trained model. A term found in a source is held
to its translation; one the search cannot place (sampling holds nothing) is reported: in the
result's ``unplaced``, on stderr, in the HTTP answer."""

import subprocess
import sys

import pytest

from fanyi import Translator
from fanyi.serve import Limits, create_app
from tiny_translator import post, tiny_model_dir

SOURCE, TERM, HELD, NEVER = "我很好。", "很好", "station", "Qxzv"


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def translator(model):
    return Translator.load(model, dtype="fp32")


def test_the_api_holds_a_term_and_reports_one_it_cannot_place(translator):
    assert HELD not in translator(SOURCE, beam=3)  # else nothing was tested
    (held,) = translator.translate([SOURCE], beam=3, glossary=[(TERM, HELD)])
    assert HELD in held.text and held.unplaced == [], held
    (sampled,) = translator.translate([SOURCE], glossary={TERM: NEVER}, sampling=True, seed=1)
    assert sampled.unplaced == [(TERM, NEVER)] and sampled.error is None
    with pytest.warns(UserWarning, match=f"glossary terms not placed: {TERM} → {NEVER}"):
        translator(SOURCE, glossary={TERM: NEVER}, sampling=True, seed=1)


@pytest.mark.slow  # two translate subprocesses
def test_the_command_reads_a_glossary_file_and_warns_of_a_term_not_placed(model, tmp_path):
    terms = tmp_path / "terms.tsv"
    terms.write_text(f"{TERM}\t{HELD}\n", encoding="utf-8")
    command = [sys.executable, "-m", "fanyi", "translate", "-m", str(model), "--threads", "1"]
    command += ["--dtype", "fp32", "--beam", "3", "--glossary", str(terms), "--text", SOURCE]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert HELD in done.stdout and "not placed" not in done.stderr, done.stderr
    terms.write_text(f"{TERM}\t{NEVER}\n", encoding="utf-8")
    sampled = subprocess.run(
        [*command, "--sampling", "true", "--seed", "1"], capture_output=True, text=True
    )
    assert sampled.returncode == 0, sampled.stderr
    assert f"--text: glossary terms not placed: {TERM} → {NEVER}" in sampled.stderr


def test_http_takes_the_terms_inline_and_answers_what_it_could_not_place(translator):
    app = create_app(translator, Limits())
    body = {"text": [SOURCE], "beam": 3, "glossary": [[TERM, HELD]]}
    (held,) = post(app, body).json()["translations"]
    assert HELD in held["text"] and held["unplaced"] == []
    body = {"text": [SOURCE], "glossary": [[TERM, NEVER]], "sampling": True, "seed": 1}
    (sampled,) = post(app, body).json()["translations"]
    assert sampled["unplaced"] == [[TERM, NEVER]]
    assert post(app, {"text": [SOURCE], "glossary": "/etc/passwd"}).status_code == 422

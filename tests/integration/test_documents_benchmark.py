"""benchmarks/documents.py on one small real document through the bundled model: its JSON line
names the file and its format, the structure is kept, every held span and URL is in the
translation, and the figures against translating as lines are sacreBLEU's, with a signature."""

import json

import pytest

from conftest import REPO, run_benchmark

pytestmark = pytest.mark.slow  # loads the bundled model in a subprocess

NAME = "nanogpt-readme.md"


def test_a_readme_keeps_its_structure_and_code_against_lines():
    fixture = REPO / "tests" / "fixtures" / "documents" / NAME
    done = run_benchmark("documents.py", "--files", str(fixture), "--limit", "6", "--threads", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "documents" and result["limit"] == 6
    [found] = result["files"]
    assert (found["file"], found["format"], found["to"]) == (NAME, "markdown", "zh")
    assert found["translated"] == 6 and found["report"]["failed"] == 0
    assert found["structure_kept"] and found["parse_error"] is None
    assert found["held"] > 0 and found["held_kept"] == found["held"]
    scores = result["formats"]["markdown"]["against_lines"]["into_zh"]
    assert 0 <= scores["bleu"] <= 100 and 0 <= scores["chrf"] <= 100
    assert scores["signature"].startswith("nrefs:1|")
    assert result["formats"]["markdown"]["held_kept_pct"] == 100.0

"""benchmarks/glossary.py: a glossary of CC-CEDICT nouns on held-out lines, each way; every term
found is placed, reported or left in a line returned as it is, none lost; one JSON line."""

import json

from conftest import run_benchmark
from tiny_translator import tiny_model_dir


def test_every_term_found_is_placed_or_reported(tmp_path_factory):
    model = tiny_model_dir(tmp_path_factory)
    done = run_benchmark("glossary.py", "-m", str(model), "--terms", "20", "--lines", "12")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "glossary" and result["terms"] == 20
    for to in ("en", "zh"):
        counts = result["results"][to]
        assert 0 < counts["lines"] <= 12
        assert counts.get("lost", 0) == 0
        parts = ("placed", "reported", "left_as_is", "lost")
        assert sum(counts.get(part, 0) for part in parts) == counts["terms_found"]
        assert counts.get("placed", 0) > 0

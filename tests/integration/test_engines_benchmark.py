"""benchmarks/end_to_end.py on a few golden sentences, each engine in process (each one's speed on
each thread count, its BLEU and its agreement with fanyi) and as commands, ending with one JSON
line."""

import json

import pytest

from conftest import run_benchmark
from fanyi.ensemble_dir import first_member
from fanyi.translate.model_names import TATOEBA
from fanyi.translate.translator import Translator

# slow: runs benchmarks/end_to_end.py both ways
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}"),
]
GOLDEN = TATOEBA.parents[3] / "tests" / "system" / "golden" / "bundled.tsv"


def golden_files(tmp_path, n):
    """The first ``n`` golden sources as tmp_path/src.zh, and ref.en their translations by the
    model the benchmarks decode by default (the bundled model's first member, fp32)."""
    sources = [line.split("\t")[0] for line in GOLDEN.read_text(encoding="utf-8").splitlines()][:n]
    references = Translator.load(first_member(TATOEBA), dtype="fp32")(sources, to="en")
    (tmp_path / "src.zh").write_text("".join(f"{s}\n" for s in sources), encoding="utf-8")
    (tmp_path / "ref.en").write_text("".join(f"{t}\n" for t in references), encoding="utf-8")


def test_engines_benchmark_reports_each_engine(tmp_path):
    golden_files(tmp_path, 10)
    done = run_benchmark(
        "end_to_end.py", "--in-process", "--src", str(tmp_path / "src.zh"), "--ref", str(tmp_path / "ref.en"),
        "--threads", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "end_to_end" and result["measure"] == "in-process"
    assert result["sentences"] == 10
    engines = {"fanyi-fp32", "ct2-float32", "ct2-int8"}
    assert set(result["sentences_per_s"]["1"]) == engines
    assert all(speed > 0 for speed in result["sentences_per_s"]["1"].values())
    quality = result["quality"]
    assert quality["fanyi-fp32"]["bleu"] == 100.0  # the references are its own beam-5 translations
    assert quality["ct2-float32"]["same_as_fanyi"] == 10


def test_end_to_end_benchmark_times_each_command(tmp_path):
    """benchmarks/end_to_end.py: fanyi translate and the plain CTranslate2 script as commands."""
    golden_files(tmp_path, 8)
    done = run_benchmark(
        "end_to_end.py", "--src", str(tmp_path / "src.zh"), "--ref", str(tmp_path / "ref.en"),
        "--sizes", "4", "8", "--cores", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "end_to_end" and result["measure"] == "commands"
    systems = {"fanyi auto", "fanyi int8", "CT2 float32", "CT2 int8"}
    assert set(result["sentences_per_s"]["4"]["1"]) == systems
    assert set(result["sentences_per_s"]["8"]) == {f"{name} (1)" for name in systems}
    quality = result["quality"]
    assert quality["fanyi auto"]["bleu"] > 60  # the references are fanyi's fp32 translations
    assert all(q["bleu"] > 20 for q in quality.values())  # every command translated its lines

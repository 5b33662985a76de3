"""Benchmarks run as a user runs them, on a few lines: each ends with one JSON line that names it
and holds its figures, consistent among themselves. (Benchmarks whose figures are checked
against fanyi itself have tests of their own: test_*_benchmark.py.)"""

import json

import pytest
import torch

from conftest import run_benchmark
from fanyi.model.inference.packed import packs
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.slow  # runs four benchmarks (about 1 minute)

GOLDEN = BUNDLED.parents[3] / "tests" / "system" / "golden" / "bundled.tsv"
BUNDLED_MODEL = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
ONEDNN = pytest.mark.skipif(
    not packs(torch.device("cpu"), torch.float32), reason="this torch has no oneDNN"
)


def timed_both_ways(result: dict, measured: str, baseline: str) -> None:
    """One shape (per dtype, where there are several) timed both ways; the speedup is the ratio
    of the two times."""
    assert result["machine"]["cores"] >= 1
    assert len(result["results"]) == len({r.get("dtype") for r in result["results"]}) >= 1
    for one in result["results"]:
        assert set(one["microseconds"]) == {measured, baseline}
        ratio = one["microseconds"][baseline] / one["microseconds"][measured]
        assert abs(one["speedup"] - ratio) < 0.05 * ratio


def every_dtype_and_the_choice(result: dict) -> None:
    """Each dtype's speed over fp32 on one thread, and the one dtype auto chose among them."""
    assert result["sentences"] == 6
    (one,) = result["results"]
    assert one["threads"] == 1 and set(one["seconds"]) == {"fp32", "bf16", "int8"}
    assert one["speed_over_fp32"]["fp32"] == 1.0 and one["auto"] in one["seconds"]
    assert one["auto_over_fp32"] == one["speed_over_fp32"][one["auto"]]


def speedup_of(figures: dict[str, float], top: str, bottom: str, speedup: float) -> None:
    """Both ways timed (``figures``: rates or times, each > 0) and ``speedup`` the ratio of
    ``top``'s figure to ``bottom``'s (within 5%)."""
    assert set(figures) == {top, bottom} and min(figures.values()) > 0
    ratio = figures[top] / figures[bottom]
    assert abs(speedup - ratio) < 0.05 * ratio


def packed_maps_and_searches(result: dict) -> None:
    """The maps timed both ways, then fp32 greedy searches: the same tokens, both timed."""
    timed_both_ways(result, "PackedLinear", "F.linear")
    search = next(r for r in result["searches"] if r["dtype"] == "float32")
    assert search["beam"] == 1 and search["same_tokens"] == 1.0
    speedup_of(search["tokens_per_s"], "PackedLinear", "plain", search["speedup"])


def both_encoders(result: dict) -> None:
    """Ragged sources (the benchmark checked both ways give the same tokens), both timed."""
    (one,) = result["results"]
    assert one["sources"] == "5-60 tokens" and one["beam"] == 1 and 0.3 < one["padding"] < 0.6
    speedup_of(one["tokens_per_s"], "skips padding", "every position", one["speedup"])


def both_softmaxes(result: dict) -> None:
    """The golden (Chinese) sources into English both ways, timed; few outputs differ."""
    assert result["sentences"] == 6 and result["to"] == "en" and 0 <= result["differ"] <= 6
    speedup_of(result["seconds"], "whole vocabulary", "allowed pieces", result["speedup"])


def raw_and_normalised_bleu(result: dict) -> None:
    assert result["lines"] == 12 and set(result["bleu"]) == {"raw", "normalised"}
    assert result["changed"] > 0  # normalising changed some lines


CASES = [  # benchmarks/SCRIPT MEASURE ARGS; the benchmark and the measure its JSON line names
    pytest.param(
        "fast_paths.py top-k",
        ["--quick", "--rounds", "1"],
        lambda result: timed_both_ways(result, "fanyi", "argmax"),
        id="top-k",
    ),
    pytest.param(
        "fast_paths.py packed-linear",
        ["--quick", "--rounds", "1"],
        lambda result: packed_maps_and_searches(result),
        id="packed-linear",
        marks=ONEDNN,
    ),
    pytest.param("fast_paths.py encoder-padding", ["--quick"], both_encoders, id="encoder-padding"),
    pytest.param(
        "dtypes.py speed",
        ["--src", "{golden}", "--threads", "1", "--rounds", "1"],
        every_dtype_and_the_choice,
        id="dtypes-speed",
        marks=BUNDLED_MODEL,
    ),
    pytest.param(
        "fast_paths.py allowed-softmax",
        ["--src", "{golden}", "--rounds", "1", "--rerank-backward", "0"],
        both_softmaxes,
        id="allowed-softmax",
        marks=BUNDLED_MODEL,
    ),
    pytest.param(
        "export_preprocessing.py",
        ["--limit", "12", "--beam", "1"],
        raw_and_normalised_bleu,
        id="export_preprocessing",
        marks=BUNDLED_MODEL,
    ),
]


@pytest.mark.parametrize(("command", "args", "check"), CASES)
def test_a_benchmark_ends_with_its_json_line(command, args, check, tmp_path):
    golden = tmp_path / "golden.zh"  # the first 6 golden sources, for those that take --src
    rows = GOLDEN.read_text(encoding="utf-8").splitlines()[:6]
    golden.write_text("".join(f"{row.split(chr(9))[0]}\n" for row in rows), encoding="utf-8")
    script, *measure = command.split()
    done = run_benchmark(script, *measure, *(arg.format(golden=golden) for arg in args))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == script.removesuffix(".py")
    assert result.get("measure") == (measure[0] if measure else None)
    check(result)


def test_the_collating_benchmark_times_three_ways_to_the_same_tensors(data_dir):
    args = ["--lines", "600", "--max-tokens", "1024", "--batches", "3", "--rounds", "1"]
    done = run_benchmark("collate.py", *args)  # it checks the three make equal tensors
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    ms = result["ms_per_batch"]
    assert result["benchmark"] == "collate" and set(ms) == {
        "fanyi",
        "row_by_row",
        "torch_pad_sequence",
    }
    ratio = ms["row_by_row"] / ms["fanyi"]
    assert result["speedup_vs_row_by_row"] == pytest.approx(ratio, rel=0.05)

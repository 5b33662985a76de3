"""The device benchmarks (benchmarks/gpu.py, gpu_decode.py) run anywhere: on the CPU (or the device of the tier), a step of
each training system and each search, with figures that agree with themselves and a MarianMT
peer that computes fanyi's log-probabilities (else the decoding ratio would compare different
models)."""

import json
import shutil

import pytest

from conftest import run_benchmark

pytestmark = pytest.mark.slow  # two benchmarks, about half a minute on 2 cores


def last_json(done) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def ratio_agrees(row: dict, key: str, system: str) -> bool:
    """``row[key]`` is ``system``'s tokens/s over generate's, each speed reported to 0.1 tokens/s and
    the ratio to 3 significant figures: the ratio lies within what those roundings allow."""
    ours, theirs = row[f"{system}_tok_s"], row["hf_generate_tok_s"]
    low, high = (ours - 0.05) / (theirs + 0.05), (ours + 0.05) / max(theirs - 0.05, 1e-9)
    return 0.995 * low <= row[key] <= 1.005 * high


def test_training_throughput_of_fanyi_and_its_peers(device):
    args = ["--device", device, "--sizes", "bundled", "--tokens", "256", "--steps", "1"]
    result = last_json(run_benchmark("gpu.py", *args, "--systems", "fanyi,torch,marian"))
    rows = result["results"]
    assert [r["system"] for r in rows] == ["fanyi", "torch", "marian"]
    assert all("error" not in r and r["tgt_tokens_per_s"] > 0 for r in rows), rows
    # the same model FLOPs for every system: TFLOP/s in proportion to tokens/s
    per_token = [r["tflops"] / r["tgt_tokens_per_s"] for r in rows if r["tflops"] > 0]
    assert max(per_token) <= 1.5 * min(per_token)


def test_a_new_batch_shape_at_every_step_is_named_in_the_row(device):
    args = ["--device", device, "--sizes", "bundled", "--tokens", "256", "--steps", "3"]
    result = last_json(run_benchmark("gpu.py", *args, "--systems", "fanyi", "--varied"))
    (row,) = result["results"]
    assert row["system"] == "fanyi varied" and "error" not in row, row
    # the mean batch of sentences 8 to 64 ids long, each batch as near 256 tokens as rows allow
    assert row["tgt_tokens_per_s"] > 0 and row["tflops"] > 0


def test_decoding_against_generate_on_the_same_weights(device):
    args = ["--device", device, "--sizes", "tiny", "--batches", "2", "--rounds", "1"]
    result = last_json(run_benchmark("gpu_decode.py", *args))
    rows = result["results"]
    assert [(r["batch"], r["beam"]) for r in rows] == [(2, 1), (2, 4)]
    for row in rows:
        assert row["max_logprob_diff_fp32"] < 1e-4  # the peer is fanyi's model
        assert row["fanyi_tok_s"] > 0 and row["hf_generate_tok_s"] > 0
        assert ratio_agrees(row, "ratio", "fanyi"), row


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
def test_compiled_decoding_is_timed_beside_the_eager_one(device):
    """Beam 4 only (``--beams``): each search compiles its steps, some 20 s on a CPU."""
    args = [
        "--device",
        device,
        "--sizes",
        "tiny",
        "--batches",
        "2",
        "--beams",
        "4",
        "--rounds",
        "1",
    ]
    result = last_json(run_benchmark("gpu_decode.py", *args, "--systems", "fanyi-compiled,hf"))
    assert [(r["batch"], r["beam"]) for r in result["results"]] == [(2, 4)]
    for row in result["results"]:
        assert "fanyi_tok_s" not in row and row["fanyi-compiled_tok_s"] > 0, row
        assert ratio_agrees(row, "compiled_ratio", "fanyi-compiled"), row

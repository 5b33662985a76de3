"""Decoding speed on a device: fanyi's search against Hugging Face ``MarianMTModel.generate`` on
the same random weights (mapped across by ``decode_peers.py`` and checked to give fanyi's
log-probabilities), greedy and beam 4 (``--beams``), at batch 1 and batch 64, both in bf16 where
the device computes it natively (fp32 elsewhere). ``--systems`` adds ``fanyi-compiled``: fanyi with its
decoder steps compiled (``compile: true``; TorchInductor, Triton kernels on a GPU), its compile in
the warm-up run, not in the timed ones.

Every system generates 30 tokens per source (EOS held back until then), so both do the same
work; the figure is generated target tokens per second, the median of ``--rounds`` timed runs
after one warm-up, the systems interleaved. Ends with one JSON line.

    python benchmarks/gpu_decode.py --device cuda              # scripts/gpu-check.sh runs this
    python benchmarks/gpu_decode.py --device cpu --sizes tiny --batches 1,4 --rounds 1   # smoke
    python benchmarks/gpu_decode.py --sizes base --batches 64 --systems fanyi,fanyi-compiled,hf
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import torch
from torch import Tensor

from decode_peers import check_marian, generate_exactly, marian_from_fanyi, random_model, sources
from fanyi.decode import SearchOptions, decode
from fanyi.device import resolve_device
from fanyi.engines.dtype import prepare_model
from fanyi.precision import bf16_native

SIZES = {
    "tiny": {"d_model": 256, "d_ff": 1024, "h": 4, "N": 3, "vocab": 8000},
    "base": {"d_model": 512, "d_ff": 2048, "h": 8, "N": 6, "vocab": 32000},
}
NEW_TOKENS = 30
SYSTEMS = ("fanyi", "fanyi-compiled", "hf")
RATIOS = {"fanyi": "ratio", "fanyi-compiled": "compiled_ratio"}  # each against generate


def fanyi_run(model, src: Tensor, beam: int, dtype: str) -> Callable[[], int]:
    config = SearchOptions(
        beam=beam, max_len_a=0, max_len_b=NEW_TOKENS - 1, min_len=NEW_TOKENS - 1
    )  # 29 tokens + the forced EOS: 30 decoder steps, like the peer's 30 tokens
    return lambda: sum(len(h[0].tokens) + 1 for h in decode(model, src, config))


def hf_run(marian, src: Tensor, beam: int) -> Callable[[], int]:
    def run() -> int:
        out = generate_exactly(marian, src, beam, NEW_TOKENS)
        return (out.size(1) - 1) * out.size(0)

    return run


def timed(run: Callable[[], int], device: torch.device) -> float:
    """Generated tokens per second of one run."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    tokens = run()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return tokens / (time.perf_counter() - start)


def measure_size(
    name: str,
    device: torch.device,
    settings: list[tuple[int, int]],
    rounds: int,
    systems: list[str],
) -> list[dict]:
    """Each (batch, beam) of ``settings``: each system's tokens/s and fanyi's ratio to MarianMT's."""
    size = SIZES[name]
    model = random_model(size)
    marian = marian_from_fanyi(model)
    probe = sources(size["vocab"], 4, torch.device("cpu"))
    diff = check_marian(model, marian, probe, probe[:, :12].clamp(min=4))
    dtype = "bf16" if bf16_native(device) else "fp32"
    torch_dtype = torch.bfloat16 if dtype == "bf16" else torch.float32
    models = {"fanyi": prepare_model(model.to(device), dtype)}
    if "fanyi-compiled" in systems:
        models["fanyi-compiled"] = prepare_model(model, dtype, compile=True)
    marian = marian.to(device=device, dtype=torch_dtype).eval()
    rows = []
    for batch, beam in settings:
        src = sources(size["vocab"], batch, device)
        runs = {k: fanyi_run(m, src, beam, dtype) for k, m in models.items() if k in systems}
        if "hf" in systems:
            runs["hf"] = hf_run(marian, src, beam)
        for run in runs.values():
            run()  # warm-up: kernels chosen (or compiled), caches allocated
        figures: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(rounds):
            for key, run in runs.items():
                figures[key].append(timed(run, device))
        speed = {k: statistics.median(v) for k, v in figures.items()}
        row = {"size": name, "batch": batch, "beam": beam, "dtype": dtype}
        row |= {f"{k}_tok_s": round(v, 1) for k, v in speed.items() if k != "hf"}
        if "hf" in speed:
            row["hf_generate_tok_s"] = round(speed["hf"], 1)
            row |= {
                RATIOS[k]: float(f"{v / speed['hf']:.3g}") for k, v in speed.items() if k != "hf"
            }
        row["max_logprob_diff_fp32"] = round(diff, 6)
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", help="cpu, cuda, cuda:N or auto")
    parser.add_argument("--sizes", default="tiny,base")
    parser.add_argument("--batches", default="1,64")
    parser.add_argument("--beams", default="1,4", help="beam widths (1: greedy)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--systems", default="fanyi,hf", help=f"of {', '.join(SYSTEMS)}")
    args = parser.parse_args()
    systems = args.systems.split(",")
    if not set(systems) <= set(SYSTEMS):
        parser.error(f"--systems: choose among {', '.join(SYSTEMS)}")
    device = resolve_device(args.device)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    settings = [
        (int(batch), int(beam))
        for batch in args.batches.split(",")
        for beam in args.beams.split(",")
    ]
    rows = []
    for size in args.sizes.split(","):
        try:
            rows += measure_size(size, device, settings, args.rounds, systems)
        except Exception as error:  # one failing size costs its rows, not the others'
            rows.append({"size": size, "error": f"{type(error).__name__}: {error}"[:300]})
            print(json.dumps(rows[-1]), flush=True)
    print(json.dumps({"device": name, "torch": torch.__version__, "results": rows}))


if __name__ == "__main__":
    main()

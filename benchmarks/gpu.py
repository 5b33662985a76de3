"""Training throughput on a device: fanyi's training step (forward, backward, Adam; bf16 autocast
where the device computes bf16 natively) on synthetic token batches, target tokens/s and model
FLOPs utilisation (MFU) at the bundled size (d256, 3+3, 8k vocabulary) and transformer-base
(d512, 6+6, 32k), at several batch sizes, with the GPU's busy share sampled by nvidia-smi.
Ends with one JSON line. The first part of issue 32's GPU benchmark (the peers come later).

    python benchmarks/gpu.py --device cuda                      # scripts/gpu-check.sh runs this
    python benchmarks/gpu.py --device cpu --sizes bundled --tokens 512 --steps 2   # a smoke run
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import tempfile
import time

import torch

from fanyi.data.batching import Batch
from fanyi.device import bf16_native, resolve_device
from fanyi.model import ModelConfig, build_model
from fanyi.train.loss import LabelSmoothingLoss
from fanyi.train.step import StepSettings, train_step

SIZES = {
    "bundled": {"d_model": 256, "d_ff": 1024, "h": 4, "N_enc": 3, "N_dec": 3, "vocab": 8000},
    "base": {"d_model": 512, "d_ff": 2048, "h": 8, "N_enc": 6, "N_dec": 6, "vocab": 32000},
}
PEAK_TFLOPS = {"H100": 989.0, "H200": 989.0, "A100": 312.0}  # dense bf16, by card name
LENGTH = 32  # tokens per sentence, both sides


def batch(vocab: int, tokens: int, device: torch.device) -> Batch:
    """Random sentences of ``LENGTH`` ids, ``tokens`` target tokens in all."""
    rows = max(1, tokens // LENGTH)
    ids = torch.randint(4, vocab, (rows, LENGTH + 1), device=device)
    return Batch(ids[:, 1:], ids[:, :-1], ids[:, 1:], rows * LENGTH)


def flops_per_step(model: torch.nn.Module, tokens: int) -> float:
    """6 FLOPs per parameter and token (forward and backward), each side's own parameters per
    its tokens (equal lengths here); attention's quadratic part left out."""
    return 6.0 * sum(p.numel() for p in model.parameters()) * tokens


def measure(size: str, tokens: int, steps: int, device: torch.device) -> dict:
    """Target tokens/s of ``steps`` timed steps after 5 warm-up ones."""
    shape = dict(SIZES[size])
    vocab = shape.pop("vocab")
    config = ModelConfig(src_vocab_size=vocab, tgt_vocab_size=vocab, max_len=256, **shape)
    model = build_model(config).to(device).train()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
    criterion, settings = LabelSmoothingLoss(0.1, config.pad_id), StepSettings(config.d_model, 4000)
    bf16 = bf16_native(device)
    autocast = torch.autocast(device.type, dtype=torch.bfloat16) if bf16 else None
    batches = [batch(vocab, tokens, device) for _ in range(4)]
    for step in range(1, 6 + steps):
        if step == 6:
            synchronize(device)
            start = time.perf_counter()
        train_step(model, optimizer, criterion, [batches[step % 4]], step, settings, autocast)
    synchronize(device)
    seconds = (time.perf_counter() - start) / steps
    per_s = batches[0].ntokens / seconds
    return {
        "size": size,
        "batch_tokens": tokens,
        "dtype": "bf16" if bf16 else "fp32",
        "tgt_tokens_per_s": round(per_s),
        "tflops": round(flops_per_step(model, batches[0].ntokens) / seconds / 1e12, 2),
    }


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


@contextlib.contextmanager
def busy_share(device: torch.device, found: dict):
    """Sample the GPU's utilisation every 500 ms while the body runs (into ``found``)."""
    if device.type != "cuda":
        yield
        return
    with tempfile.TemporaryFile("w+") as out:
        query = ["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits"]
        sampler = subprocess.Popen([*query, "-lms", "500"], stdout=out, text=True)
        try:
            yield
        finally:
            sampler.terminate()
            sampler.wait()
            out.seek(0)
            samples = [int(line) for line in out.read().split() if line.isdigit()]
            found["gpu_busy_median_pct"] = statistics.median(samples) if samples else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", help="cpu, cuda, cuda:N or auto")
    parser.add_argument("--sizes", default="bundled,base")
    parser.add_argument("--tokens", default="4096,32768", help="target tokens per batch")
    parser.add_argument("--steps", type=int, default=30, help="timed steps per setting")
    args = parser.parse_args()
    device = resolve_device(args.device)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    peak = next((v for k, v in PEAK_TFLOPS.items() if k in name), None)
    rows = []
    for size in args.sizes.split(","):
        for tokens in map(int, args.tokens.split(",")):
            busy: dict = {}
            with busy_share(device, busy):
                row = measure(size, tokens, args.steps, device)
            row.update(busy)
            row["mfu"] = round(row["tflops"] / peak, 3) if peak else None
            print(json.dumps(row), flush=True)
            rows.append(row)
    print(json.dumps({"device": name, "torch": torch.__version__, "results": rows}))


if __name__ == "__main__":
    main()

"""Prefetched batches (train/prefetch.py): training steps with the next step's batches collated
on a thread (pinned on CUDA) vs collated in line, on real Tatoeba batches.

One Trainer takes its steps from the loop's own stream; rounds of ``--steps`` steps alternate
between ``prefetch: never`` and ``prefetch: always`` so machine noise falls on both, and each
round ends by waiting for the device. The speed-up is the ratio of median round times, and the
median of the rounds' paired ratios (each pair ran back to back). Also prints the host time to
collate one step's batches.

    .venv/bin/python benchmarks/train_prefetch.py [--device cpu] [--threads 1] [--rounds 8]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import statistics
import tempfile
import time
from pathlib import Path

import torch

from common import emit, machine
from fanyi.runtime import set_threads
from fanyi.train import TrainConfig
from fanyi.train.trainer import Trainer, batch_stream, step_pulls
from train_throughput import MODEL, prepare_slice

SETTINGS = ("never", "always")


def timed_round(trainer: Trainer, prefetch: str, steps: int) -> float:
    """Seconds for ``steps`` training steps with ``prefetch``, the device waited for."""
    trainer.cfg = dataclasses.replace(trainer.cfg, prefetch=prefetch)
    start = time.perf_counter()
    with trainer.prefetcher() as stream:
        for _ in range(steps):
            trainer.step(*next(stream))
        if trainer.ctx.dist.device.type == "cuda":
            torch.cuda.synchronize()
    return time.perf_counter() - start


def collate_seconds(trainer: Trainer, steps: int) -> float:
    """Median host seconds to collate one step's batches."""
    stream = step_pulls(batch_stream(trainer.sampler, trainer.state), trainer.cfg.accumulation)
    times = []
    for pulled in itertools.islice(stream, steps):
        start = time.perf_counter()
        trainer.collated(pulled)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=10, help="steps per round")
    parser.add_argument("--max-tokens", type=int, default=4096)
    parser.add_argument("--lines", type=int, default=12000, help="Tatoeba lines to prepare")
    args = parser.parse_args()
    set_threads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        data = prepare_slice(Path(tmp) / "data", args.lines)
        cfg = TrainConfig(
            data_dir=str(data), out_dir=str(Path(tmp) / "run"), model=MODEL, dtype="fp32",
            max_tokens=args.max_tokens, valid_bleu=False, best_metric="loss", progress=False,
        )  # fmt: skip
        trainer = Trainer(cfg, device=args.device, dtype="fp32")
        trainer.ctx.model.train()
        timed_round(trainer, "never", 2)  # warm-up
        seconds: dict[str, list[float]] = {s: [] for s in SETTINGS}
        for n in range(args.rounds):
            for prefetch in SETTINGS if n % 2 == 0 else SETTINGS[::-1]:
                seconds[prefetch].append(timed_round(trainer, prefetch, args.steps))
        per_step = {s: statistics.median(t) / args.steps for s, t in seconds.items()}
        collate_s = collate_seconds(trainer, 20)
    ratio = per_step["never"] / per_step["always"]
    paired = statistics.median(
        a / b for a, b in zip(seconds["never"], seconds["always"], strict=True)
    )
    print(
        f"s/step: never {per_step['never']:.4f}, always {per_step['always']:.4f}; "
        f"prefetched/in line speed {ratio:.3f}x (paired by round {paired:.3f}x); collating a step {collate_s * 1e3:.1f} ms",
        flush=True,
    )
    emit(
        {
            "benchmark": "train_prefetch",
            "machine": machine(),
            "device": args.device,
            "threads": args.threads,
            "rounds": args.rounds,
            "steps_per_round": args.steps,
            "max_tokens": args.max_tokens,
            "seconds_per_step": {s: round(v, 5) for s, v in per_step.items()},
            "round_seconds": {s: [round(x, 3) for x in t] for s, t in seconds.items()},
            "prefetched_speedup": round(ratio, 3),
            "prefetched_speedup_paired": round(paired, 3),
            "collate_ms_per_step": round(collate_s * 1e3, 2),
        }
    )


if __name__ == "__main__":
    main()

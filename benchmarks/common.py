"""Shared pieces of the benchmarks: machine description, timing, the JSON result line."""

from __future__ import annotations

import functools
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import torch


def machine() -> dict:
    """What ran the benchmark: CPU, cores, versions."""
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
            f.seek(0)
            flags = next(line for line in f if line.startswith("flags")).split()
        isa = [x for x in ("avx512f", "avx512_bf16", "amx_bf16", "amx_int8") if x in flags]
    except (OSError, StopIteration):
        isa = []
    return {
        "cpu": cpu,
        "isa": isa,
        "cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "python": platform.python_version(),
        "torch": torch.__version__,
    }


def matmul_gflops(threads: int, n: int = 1024, calls: int = 20) -> dict[str, float]:
    """The host's speed as the model sees it: GFLOP/s of an n×n matmul in bf16 and fp32.

    Cloud hosts of one type differ by 2× or more; a long benchmark records this beside its
    tokens/s so that runs on different hosts can be compared.
    """
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    speeds = {}
    for name, dtype in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
        a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
        seconds = statistics.median(
            timed(functools.partial(torch.matmul, a, b)) for _ in range(calls)
        )
        speeds[name] = round(2 * n**3 / seconds / 1e9, 1)
    torch.set_num_threads(previous)
    return speeds


def read_lines(path: str, limit: int | None = None) -> list[str]:
    """The lines of a text file (its first ``limit`` when given)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return lines[:limit] if limit else lines


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(
    runs: dict[str, Callable[[], object]], rounds: int, warmup: int = 1
) -> dict[str, float]:
    """Median seconds per call for each run, calling them in turn so machine noise hits all alike."""
    for _ in range(warmup):
        for fn in runs.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            times[name].append(timed(fn))
    return {name: statistics.median(t) for name, t in times.items()}


def emit(result: dict) -> None:
    """The last line of every benchmark: all figures as one JSON object."""
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))

"""Shared pieces of the benchmarks: machine description, timing, the JSON result line."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable

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

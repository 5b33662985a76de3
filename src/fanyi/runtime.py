"""The process's runtime policy: threads (its share of ``precision.cores``), the device, the
torchrun job.

One policy, applied once by each entry point (the commands in ``fanyi.cli``, the server, the
recipe), never as a side effect of loading a model or building a trainer: those take the device
and dtype they are given (``precision.resolve_dtype`` answers ``auto``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import torch
import torch.distributed as torch_dist

from .device import resolve_device
from .precision import cores

MAX_THREADS = 1024  # intra-op threads a user may ask for: each one is an OS thread and its stack


def set_threads(threads: int | None, processes: int = 1) -> int:
    """Use ``threads`` intra-op threads (None or ≤ 0: this process's share of the cores when
    ``processes`` share them); returns the number set.

    torch's default ignores other work on the machine; on a busy 2-core box oversubscription was
    measured 5× slower, so every command sets this explicitly. New threads inherit the setting.
    """
    if threads is not None and threads > MAX_THREADS:
        raise ValueError(f"threads must be at most {MAX_THREADS}, not {threads}")
    if threads is None or threads <= 0:
        threads = max(1, cores() // processes)
    torch.set_num_threads(threads)
    return threads


def choose_device(device: str) -> torch.device:
    """``auto`` → a GPU if there is one, else the CPU; a GPU is this process's own under torchrun
    (``cuda:LOCAL_RANK``) unless an index is given; one this machine lacks is refused
    (``device.resolve_device``)."""
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda":
        device = f"cuda:{os.environ.get('LOCAL_RANK', '0')}"
    return resolve_device(device)


def job_rank() -> tuple[int, int]:
    """This process's (global rank, world size) in the torchrun job it was started in
    (0, 1 outside one)."""
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


@contextmanager
def training_process(device: str, threads: int | None) -> Iterator[torch.device]:
    """Set up this training process: its device, its share of the cores (of its machine), and,
    under torchrun (``WORLD_SIZE`` > 1, on one machine or several), its membership of the job
    (gloo on CPU, nccl on GPU), left at exit."""
    chosen = choose_device(device)
    _, world_size = job_rank()
    set_threads(threads, int(os.environ.get("LOCAL_WORLD_SIZE", str(world_size))))
    if chosen.type == "cuda":
        torch.cuda.set_device(chosen)
    if world_size > 1 and not torch_dist.is_initialized():
        torch_dist.init_process_group("nccl" if chosen.type == "cuda" else "gloo")
    try:
        yield chosen
        if torch_dist.is_initialized():
            # Leave together: rank 0 saves last, and a rank that tore down its gloo connections
            # while rank 0 still held its own was seen to abort rank 0 at exit.
            torch_dist.barrier()
    finally:
        if torch_dist.is_initialized():
            torch_dist.destroy_process_group()

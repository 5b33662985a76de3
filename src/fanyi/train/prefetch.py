"""Prefetched batches: the next step's batches are collated on a thread while this step trains.

Only the collation moves to the thread. Which batches a step takes, and the data position a
checkpoint records, stay with the loop on the main thread, so a resumed run sees exactly the
batches it would have seen. On CUDA the thread also pins the collated tensors, so that their
copy to the device need not wait (``Batch.to(device, non_blocking=True)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType
from typing import Generic, TypeVar

import torch

from ..data import Batch

THREAD_NAME = "fanyi-prefetch"  # the thread's name, for a test (or a profiler) to find it
Pulls = TypeVar("Pulls")  # what the loop pulled for one step: the indices its batches hold


def background(setting: str, device: torch.device) -> bool:
    """Whether ``prefetch`` (auto, always, never) collates on a thread on ``device``. auto: on
    CUDA, where the card would wait for the host; not on the CPU, where collating is ~0.6% of
    a 4,096-token step and the thread gave no measurable gain (benchmarks/train_prefetch.py)."""
    return setting == "always" or (setting == "auto" and device.type == "cuda")


def indexed(device: torch.device) -> torch.device:
    """``device`` with its index: a bare ``cuda`` is the calling thread's current card (a
    new thread's would be card 0)."""
    if device.type == "cuda" and device.index is None:
        return torch.device("cuda", torch.cuda.current_device())
    return device


class Prefetcher(Generic[Pulls]):
    """``(pulls, their batches)`` for each step of ``steps``, the batches collated by
    ``collate``: one step ahead on a thread when ``ahead``, else when asked for. Use it as a
    context manager: leaving stops the thread (after the collation in flight, if any)."""

    def __init__(
        self,
        steps: Iterator[Pulls],
        collate: Callable[[Pulls], list[Batch]],
        device: torch.device,
        ahead: bool,
    ) -> None:
        self.steps, self.collate, self.device = steps, collate, indexed(device)
        self.pool = ThreadPoolExecutor(1, THREAD_NAME, self.on_device) if ahead else None
        self.coming: tuple[Pulls, Future[list[Batch]]] | None = None

    def on_device(self) -> None:
        """The thread's CUDA device is the loop's: pinned memory belongs to its context."""
        if self.device.type == "cuda":
            torch.cuda.set_device(self.device)

    def prepared(self, pulls: Pulls) -> list[Batch]:
        """The batches of ``pulls``, pinned when they go to a CUDA device."""
        batches = self.collate(pulls)
        if self.device.type == "cuda":
            batches = [batch.pin_memory() for batch in batches]
        return batches

    def __iter__(self) -> Iterator[tuple[Pulls, list[Batch]]]:
        return self

    def __next__(self) -> tuple[Pulls, list[Batch]]:
        if self.pool is None:
            pulls = next(self.steps)
            return pulls, self.collate(pulls)
        pulls, batches = self.coming or self.submit()
        done = batches.result()  # a collation's exception is raised here, in the loop
        self.coming = self.submit()  # collates while the caller trains on `done`
        return pulls, done

    def submit(self) -> tuple[Pulls, Future[list[Batch]]]:
        """Pull the next step (here, on the loop's thread) and start collating it."""
        assert self.pool is not None
        pulls = next(self.steps)
        return pulls, self.pool.submit(self.prepared, pulls)

    def __enter__(self) -> Prefetcher[Pulls]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

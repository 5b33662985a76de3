"""Several single-thread worker processes on parts of one batch.

Step-wise decoding of a small model is bound by Python's per-step overhead as much as by its small
matrix products, so threads sharing one interpreter (and its GIL) barely scale, and several
intra-op threads synchronise more than they save. Processes forked from this one, each with one
intra-op thread and the model inherited copy-on-write, use the cores side by side: the only
traffic is the source ids going out and the hypotheses coming back.
"""

from __future__ import annotations

import atexit
import dataclasses
import multiprocessing
from multiprocessing.pool import Pool

import torch

from ..model import Model
from .hypothesis import Hypothesis, Search, SearchTask, no_pause

Task = tuple[Search, SearchTask]
POLL_SECONDS = 0.02  # how often the parent runs the step hook while the workers decode

# (id(model), processes) → (model, its pool); holding the model keeps its id from being reused
_pools: dict[tuple[int, int], tuple[Model, Pool]] = {}
_worker_model: Model | None = None  # the model, in a worker process


def in_parallel(
    search: Search, model: Model, task: SearchTask, workers: int
) -> list[list[Hypothesis]]:
    """Run ``search`` on ``workers`` near-equal parts of ``task``'s sources (their target
    prefixes split alike) at once; results in order.

    ``task.between_steps`` runs while waiting for the workers; if it raises (a cancelled request),
    the pool is terminated, so that its processes stop working on the abandoned batch.
    """
    parts = [part for part in task.src.tensor_split(workers) if part.size(0)]
    prefixes = [None] * len(parts) if task.forced is None else task.forced.tensor_split(workers)
    alone = dataclasses.replace(task, between_steps=no_pause)  # a worker has no hook to run
    tasks: list[Task] = [
        (search, alone.part(part, prefix)) for part, prefix in zip(parts, prefixes, strict=False)
    ]
    pending = worker_pool(model, workers).map_async(_run, tasks)
    try:
        while not pending.ready():
            task.between_steps()
            pending.wait(POLL_SECONDS)
    except BaseException:
        _pools.pop((id(model), workers))[1].terminate()
        raise
    return [hyps for result in pending.get() for hyps in result]


def worker_pool(model: Model, processes: int) -> Pool:
    """The pool of processes forked with ``model`` (made at first use, kept for later batches)."""
    key = (id(model), processes)
    if key not in _pools:
        context = multiprocessing.get_context("fork")
        pool = context.Pool(processes, initializer=_start_worker, initargs=(model,))
        _pools[key] = (model, pool)
    return _pools[key][1]


def _start_worker(model: Model) -> None:
    global _worker_model
    torch.set_num_threads(1)
    _worker_model = model


def _run(task: Task) -> list[list[Hypothesis]]:
    search, part = task
    assert _worker_model is not None
    return search(_worker_model, part)


@atexit.register
def _close_pools() -> None:
    for _, pool in _pools.values():
        pool.terminate()
    _pools.clear()

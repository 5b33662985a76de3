"""Several single-thread worker processes on parts of one batch.

Step-wise decoding of a small model is bound by Python's per-step overhead as much as by its small
matrix products, so threads sharing one interpreter (and its GIL) barely scale, and several
intra-op threads synchronise more than they save. Processes forked from this one, each with one
intra-op thread and the model inherited copy-on-write, use the cores side by side: the only
traffic is the source ids going out and the hypotheses coming back. Searches held to phrases
(``held_batch.py``) are split among the workers the same way.
"""

from __future__ import annotations

import atexit
import dataclasses
import multiprocessing
from functools import partial
from multiprocessing.pool import Pool

import torch

from ..model import Model
from .constraints import Constraints
from .held_batch import constrained_searches
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
    parts = _parts(task, workers)
    return _mapped(model, task, workers, [(search, part) for part in parts])


def held_in_parallel(
    model: Model, task: SearchTask, constraints: list[Constraints], workers: int
) -> list[list[Hypothesis]]:
    """``constrained_searches`` of ``task``'s sources, each held to its own ``constraints``, on
    ``workers`` near-equal parts at once, as ``in_parallel`` splits a free search. A held
    source's translations are those it gets searched alone (``held_batch.py``), so the split
    changes none of them."""
    if workers <= 1 or task.src.size(0) < 2:
        return constrained_searches(model, task, constraints)
    tasks: list[Task] = []
    start = 0
    for part in _parts(task, workers):
        stop = start + part.src.size(0)
        tasks.append((partial(constrained_searches, constraints=constraints[start:stop]), part))
        start = stop
    return _mapped(model, task, workers, tasks)


def _parts(task: SearchTask, workers: int) -> list[SearchTask]:
    """``task``'s sources (and target prefixes) in at most ``workers`` near-equal parts, each a
    task of its own without the step hook (a worker has none to run)."""
    parts = [part for part in task.src.tensor_split(workers) if part.size(0)]
    prefixes = [None] * len(parts) if task.forced is None else task.forced.tensor_split(workers)
    alone = dataclasses.replace(task, between_steps=no_pause)
    return [alone.part(part, prefix) for part, prefix in zip(parts, prefixes, strict=False)]


def _mapped(
    model: Model, task: SearchTask, workers: int, tasks: list[Task]
) -> list[list[Hypothesis]]:
    """Each of ``tasks`` run by the pool of ``workers`` processes; the results in order, while
    ``task.between_steps`` runs in this process (the pool ended if it raises)."""
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

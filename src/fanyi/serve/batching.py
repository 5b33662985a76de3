"""Dynamic batching with fair turns: concurrent requests are decoded together, and no request
waits for a long one to finish.

A request becomes a job: its texts, its decoding options and its cost (source tokens × beam).
Jobs that arrive within ``wait`` seconds of each other and share options form one batch of at
most ``batch_cost`` (a costlier job is a batch alone: a heavy one). Every batch decodes in its
own worker thread, and the batches take turns between decoding steps, the oldest first unless
it has decoded far longer than its cost predicts, or is heavy (``turns.py``). The next batch is formed only once the last one has begun, so that under load
the requests that arrive meanwhile are decoded together. When every job of a batch has been abandoned (timed out, or its client went
away) the batch is cancelled at its next step. At most ``max_heavy`` heavy batches decode at
once, since they hold the most memory; later ones wait in the queue while light ones go by. A
batch of several jobs that fails is retried job by job, so one bad request cannot fail the rest.
Once no batch has decoded for ``idle_after`` seconds, ``on_idle`` runs in a worker thread (the
service hands the memory its batches freed back to the system: ``memory.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..decode import Cancelled, StepHook
from .turns import Slot, Turns

Translate = Callable[[list[Any], Any, StepHook], list[Any]]  # one result per text


class Overloaded(Exception):
    """More texts are waiting than the service accepts."""


@dataclass(eq=False)
class _Job:
    texts: list[Any]  # the texts as ``translate`` takes them (each with its target prefix)
    options: Any  # compared with ==: jobs of equal options share a batch
    cost: int  # source tokens × beam
    future: asyncio.Future = field(repr=False)
    alone: bool = False  # its shared batch failed: decode it without neighbours
    batch: _Batch | None = None
    submitted: float = field(default_factory=time.monotonic)


@dataclass(eq=False)
class _Batch:
    jobs: list[_Job]
    heavy: bool
    slot: Slot
    started: float = field(default_factory=time.monotonic)
    begun: bool = False  # it has had its first turn


class Batcher:
    """Gathers concurrent ``submit`` calls into batches for ``translate``, decoded in turns."""

    def __init__(
        self,
        translate: Translate,
        wait: float,
        batch_cost: int,
        max_heavy: int,
        max_waiting: int,
        max_batches: int = 64,
        on_idle: Callable[[], object] | None = None,
        idle_after: float = 1.0,
    ) -> None:
        self.translate = translate
        self.wait = wait
        self.batch_cost = batch_cost
        self.max_heavy = max_heavy
        self.max_waiting = max_waiting
        self.max_batches = max_batches
        self.on_idle, self.idle_after = on_idle, idle_after
        self._idle: asyncio.TimerHandle | None = None  # the pending call of ``on_idle``
        self.waiting = 0  # texts submitted and not yet answered
        self._queue: list[_Job] = []
        self._active: set[_Batch] = set()
        self._turns = Turns()
        self._executor = ThreadPoolExecutor(max_batches, thread_name_prefix="fanyi-decode")
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None

    async def submit(self, texts: list[Any], options: Any, cost: int) -> list[Any]:
        """The results for ``texts``; cancelling the call abandons them (their batch stops once
        all its jobs are abandoned)."""
        if self.waiting + len(texts) > self.max_waiting:
            raise Overloaded(f"{self.waiting} texts are already waiting")
        wake = self._start()
        job = _Job(texts, options, cost, asyncio.get_running_loop().create_future())
        job.future.add_done_callback(lambda _: self._abandon_if_done(job.batch))
        self.waiting += len(texts)
        self._queue.append(job)
        wake.set()
        try:
            return await job.future
        finally:
            self.waiting -= len(texts)
            job.future.cancel()  # when the caller gave up: a no-op once answered

    @property
    def decoding(self) -> int:
        """Batches being decoded (or waiting for their turn) now."""
        return len(self._active)

    def decoding_seconds(self) -> float:
        """How long the oldest batch now decoding has been at it (0 when idle)."""
        now = time.monotonic()
        return max((now - batch.started for batch in self._active), default=0.0)

    def close(self) -> None:
        """Stop the dispatcher, cancel every batch, stop the worker threads."""
        if self._task is not None:
            self._task.cancel()
        if self._idle is not None:
            self._idle.cancel()
        for batch in self._active:
            self._turns.cancel(batch.slot)
        self._executor.shutdown(wait=False, cancel_futures=True)

    # --- dispatching (event loop) ---

    def _start(self) -> asyncio.Event:
        """The wake-up event of the running loop's dispatcher (started lazily, so the app also
        works where no lifespan events run, e.g. an ASGI transport in tests)."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._queue, self._active = [], set()  # those of a closed loop are gone
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._dispatch(self._wake))
        assert self._wake is not None
        return self._wake

    async def _dispatch(self, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            await asyncio.sleep(self.wait)  # let concurrent requests join
            self._queue = [job for job in self._queue if not job.future.done()]
            while (jobs := self._next_batch()) is not None:
                self._launch(jobs)

    def _heavy(self, job: _Job) -> bool:
        return job.cost > self.batch_cost

    def _next_batch(self) -> list[_Job] | None:
        """The first job that may start, with the later ones that fit beside it."""
        if len(self._active) >= self.max_batches or not all(b.begun for b in self._active):
            return None
        heavy_full = sum(batch.heavy for batch in self._active) >= self.max_heavy
        startable = [job for job in self._queue if not (heavy_full and self._heavy(job))]
        if not startable:
            return None
        first = startable[0]
        jobs, cost = [first], first.cost
        if not (first.alone or self._heavy(first)):
            for job in startable[1:]:
                if (
                    job.options == first.options
                    and not job.alone
                    and cost + job.cost <= self.batch_cost
                ):
                    jobs.append(job)
                    cost += job.cost
        for job in jobs:
            self._queue.remove(job)
        return jobs

    def _launch(self, jobs: list[_Job]) -> None:
        heavy = len(jobs) == 1 and self._heavy(jobs[0])
        arrived = min(job.submitted for job in jobs)  # its age is its oldest request's
        cost = sum(job.cost for job in jobs)
        batch = _Batch(jobs, heavy, Slot(cost=cost, heavy=heavy, arrived=arrived))
        for job in jobs:
            job.batch = batch
        self._active.add(batch)
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self._executor, self._decode, batch, loop)
        work.add_done_callback(lambda done: self._finish(batch, done))

    def _begin(self, batch: _Batch) -> None:
        batch.begun = True
        if self._wake is not None:
            self._wake.set()  # the next batch may form

    def _finish(self, batch: _Batch, done: asyncio.Future) -> None:
        """Hand each job its results; retry the jobs of a failed shared batch one by one."""
        self._active.discard(batch)
        if self._wake is not None:
            self._wake.set()  # a place is free: start what waits
        self._when_idle()
        error = None if done.cancelled() else done.exception()
        if done.cancelled() or isinstance(error, Cancelled):
            return
        if error is not None and len(batch.jobs) > 1:
            for job in batch.jobs:
                job.alone = True
            self._queue[:0] = batch.jobs
            return
        start = 0
        for job in batch.jobs:
            if not job.future.done():
                if error is None:
                    job.future.set_result(done.result()[start : start + len(job.texts)])
                else:
                    job.future.set_exception(error)
            start += len(job.texts)

    def _when_idle(self) -> None:
        """Call ``on_idle`` ``idle_after`` seconds from now if no batch decodes then (a later
        finish moves the call later)."""
        if self.on_idle is None or self._active:
            return
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(self.idle_after, self._idle_now)

    def _idle_now(self) -> None:
        self._idle = None
        if self.on_idle is not None and not self._active and not self._queue:
            asyncio.get_running_loop().run_in_executor(self._executor, self.on_idle)

    def _abandon_if_done(self, batch: _Batch | None) -> None:
        """Cancel ``batch`` when none of its jobs is still awaited."""
        if batch is not None and all(job.future.done() for job in batch.jobs):
            self._turns.cancel(batch.slot)

    # --- decoding (a worker thread) ---

    def _decode(self, batch: _Batch, loop: asyncio.AbstractEventLoop) -> list[Any]:
        texts = [text for job in batch.jobs for text in job.texts]
        self._turns.enter(batch.slot)
        loop.call_soon_threadsafe(self._begin, batch)
        try:
            return self.translate(
                texts, batch.jobs[0].options, lambda: self._turns.between_steps(batch.slot)
            )
        finally:
            self._turns.leave(batch.slot)

"""Dynamic batching: requests that arrive within a few milliseconds are decoded as one batch.

Each request puts a job on an asyncio queue and awaits its future. One collector task takes the
first job, waits up to ``wait`` seconds for more (or until ``max_texts`` texts), groups the jobs
by decoding options, and runs each group in a single worker thread, so the event loop stays free
and the model is only ever used by one thread. A group that fails is retried job by job, so one
bad request cannot fail its neighbours.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

Translate = Callable[[list[str], Any], list[Any]]  # (texts, options) → one result per text


class Overloaded(Exception):
    """More texts are waiting than the service accepts."""


@dataclass
class _Job:
    texts: list[str]
    options: Hashable
    future: asyncio.Future = field(repr=False)


class Batcher:
    """Gathers concurrent ``submit`` calls into batches for ``translate`` (one worker thread)."""

    def __init__(self, translate: Translate, wait: float, max_texts: int, max_waiting: int) -> None:
        self.translate = translate
        self.wait = wait
        self.max_texts = max_texts
        self.max_waiting = max_waiting
        self.waiting = 0  # texts submitted and not yet answered
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="fanyi-decode")
        self._queue: asyncio.Queue[_Job] | None = None
        self._task: asyncio.Task | None = None

    async def submit(self, texts: list[str], options: Hashable) -> list[Any]:
        """The results for ``texts``, decoded together with whatever else arrived meanwhile."""
        if self.waiting + len(texts) > self.max_waiting:
            raise Overloaded(f"{self.waiting} texts are already waiting")
        queue = self._start()
        job = _Job(texts, options, asyncio.get_running_loop().create_future())
        self.waiting += len(texts)
        try:
            await queue.put(job)
            return await job.future
        finally:
            self.waiting -= len(texts)

    def _start(self) -> asyncio.Queue[_Job]:
        """The queue of the running event loop, with its collector task (started lazily, so the
        app also works where no lifespan events run, e.g. an ASGI transport in tests)."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._queue = asyncio.Queue()
            self._task = loop.create_task(self._run())
        assert self._queue is not None
        return self._queue

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            jobs = await self._collect(self._queue)
            groups: dict[Hashable, list[_Job]] = {}
            for job in jobs:
                if not job.future.done():  # a request that timed out is not decoded
                    groups.setdefault(job.options, []).append(job)
            for group in groups.values():
                await self._decode(group, retry_alone=len(group) > 1)

    async def _collect(self, queue: asyncio.Queue[_Job]) -> list[_Job]:
        """The next job and those arriving within ``wait`` seconds (up to ``max_texts`` texts)."""
        jobs = [await queue.get()]
        count = len(jobs[0].texts)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait
        while count < self.max_texts and (remaining := deadline - loop.time()) > 0:
            try:
                job = await asyncio.wait_for(queue.get(), remaining)
            except asyncio.TimeoutError:
                break
            jobs.append(job)
            count += len(job.texts)
        return jobs

    async def _decode(self, group: list[_Job], retry_alone: bool) -> None:
        """Decode ``group`` as one batch and hand each job its results."""
        texts = [text for job in group for text in job.texts]
        loop = asyncio.get_running_loop()
        try:
            results = await loop.run_in_executor(
                self._executor, self.translate, texts, group[0].options
            )
        except Exception as error:
            if retry_alone:
                for job in group:
                    await self._decode([job], retry_alone=False)
                return
            _answer(group[0], error=error)
            return
        start = 0
        for job in group:
            _answer(job, result=results[start : start + len(job.texts)])
            start += len(job.texts)

    def close(self) -> None:
        """Stop the collector and the worker thread."""
        if self._task is not None:
            self._task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)


def _answer(job: _Job, result: list[Any] | None = None, error: Exception | None = None) -> None:
    if job.future.done():  # its request timed out meanwhile
        return
    if error is not None:
        job.future.set_exception(error)
    else:
        job.future.set_result(result)

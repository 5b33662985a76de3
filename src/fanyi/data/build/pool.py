"""Worker processes for the CPU-bound steps of ``prepare`` (cleaning, encoding).

:func:`ordered_map` applies a function to chunks of a stream in ``workers`` processes and gives
the results back in input order, with only a few chunks in flight: unlike ``Pool.imap``, whose
feeder thread reads its whole input at once, memory stays bounded however long the stream.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
IN_FLIGHT = 2  # chunks queued per worker: enough to keep each busy, few enough to stay small


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last may be shorter)."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def ordered_map(fn: Callable[[T], R], chunks: Iterable[T], workers: int) -> Iterator[R]:
    """``fn(chunk)`` for every chunk, in order; in this process when ``workers`` is 1.

    ``fn`` must be a module-level function (it is sent to the workers by name); the workers are
    forked where the platform allows, so they start in milliseconds without re-importing fanyi.
    """
    if workers <= 1:
        yield from map(fn, chunks)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(workers) as pool:
        pending: deque = deque()
        for chunk in chunks:
            pending.append(pool.apply_async(fn, (chunk,)))
            if len(pending) >= IN_FLIGHT * workers:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

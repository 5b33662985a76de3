"""Python's cyclic garbage collector while a command starts.

Importing torch and loading a model make a few million objects and almost no garbage, yet every
collection of the oldest generation walks them all: ``fanyi translate --text 你好`` spent 0.3 CPU s
collecting, a tenth of its start-up, and 0.1 s more at exit. While a command imports and loads, the
collector is paused; what was made is then frozen (``gc.freeze``), so that later collections, and
the one at exit, walk only what the work itself makes. Only in a program (``fanyi …``, inside
:func:`as_program`): in a caller's process, objects frozen would never be collected.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_PROGRAM = {"on": False}  # while the command line's entry point runs, never in a library call


@contextlib.contextmanager
def as_program(on: bool) -> Iterator[None]:
    """Inside, this process is ``fanyi`` itself where ``on``: :func:`paused_then_frozen`
    takes effect."""
    previous, _PROGRAM["on"] = _PROGRAM["on"], on
    try:
        yield
    finally:
        _PROGRAM["on"] = previous


@contextlib.contextmanager
def paused_then_frozen() -> Iterator[None]:
    """In a program, no collection inside, and the objects alive at its end are left out of
    every later one; elsewhere nothing changes."""
    if not _PROGRAM["on"]:
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()

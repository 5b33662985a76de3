"""Python's cyclic garbage collector while a command starts.

Importing torch and loading a model make a few million objects and almost no garbage, yet every
collection of the oldest generation walks them all: ``fanyi translate --text 你好`` spent
0.3 CPU s collecting, a tenth of its start-up, and 0.1 s more at exit. While a command imports
and loads, the collector is paused; what was made is then frozen (``gc.freeze``), so that later
collections, and the one at exit, walk only what the work itself makes. Only in a program
(``fanyi …``, :func:`as_program`): in a caller's process, objects frozen would never be collected.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_PROGRAM = {"on": False}  # set by the command line's entry point, never by a library call


def as_program() -> None:
    """This process is ``fanyi`` itself: :func:`paused_then_frozen` takes effect."""
    _PROGRAM["on"] = True


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

"""Argument types shared by the commands: a bad value stops argparse with one line that names
the flag (``argument --threads: must be at least 0, not -1``) and exit status 2."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer ≥ ``low`` (and ≤ ``high``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, not {value}")
        return value

    return parse


def threads(text: str) -> int:
    """A number of CPU threads, 0 (every core) to ``runtime.MAX_THREADS``."""
    from ..runtime import MAX_THREADS  # with torch: only once a number is given

    return at_least(0, MAX_THREADS)(text)


def seconds(text: str) -> float:
    """A finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds > 0, not {text}")
    return value


def device(text: str) -> str:
    """A device this machine has (``device.resolve_device``), as named."""
    from ..device import resolve_device  # torch: only once a device is named

    try:
        resolve_device(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text

"""Turn-taking between batches that decode in their own threads, one decoding step at a time.

Each batch runs in its own thread but only the one holding the turn computes; the others wait.
Who goes first is a two-level feedback queue: a batch's first ``fresh`` seconds of decoding come
first come, first served; after that it shares what time is left with the other long ones, the
least served first. Between two decoding steps (the search's step hook), once the holder has
had the turn for a ``quantum``, it hands the turn on to a waiting batch that goes before it. A
short request therefore overtakes a long one within a quantum and is answered as if alone,
short ones never overtake each other (under a steady stream of them, none starves), and long
ones progress side by side. A cancelled batch (its requests timed out or went away) stops at
its next step, or before its first.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..decode import Cancelled


@dataclass(eq=False)
class Slot:
    """One batch's place in the turn-taking."""

    served: float = 0.0  # seconds it has held the turn
    cancelled: bool = False
    since: float = 0.0  # when its current turn began
    arrival: int = -1  # its place in the first-come order (set by its first ``enter``)


class Turns:
    """Who decodes now: ``enter`` before the first step, ``between_steps`` between steps (the
    step hook), ``leave`` when done; ``cancel`` from any thread."""

    def __init__(
        self, quantum: float = 0.1, fresh: float = 1.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.quantum = quantum  # seconds a batch keeps the turn before it may hand it on
        self.fresh = fresh  # seconds of decoding served first come, first served
        self._clock = clock
        self._arrivals = itertools.count()
        self._changed = threading.Condition()
        self._holder: Slot | None = None
        self._waiting: list[Slot] = []

    def enter(self, slot: Slot) -> None:
        """Wait for ``slot``'s first turn (raises ``Cancelled`` if cancelled meanwhile)."""
        with self._changed:
            slot.arrival = next(self._arrivals)
            self._wait_for_turn(slot)

    def between_steps(self, slot: Slot) -> None:
        """Raise ``Cancelled`` if ``slot`` was cancelled; else, after a quantum, hand the turn to
        a waiting batch that has been served less, and wait for it to come back."""
        with self._changed:
            if slot.cancelled:
                self._release(slot)
                raise Cancelled
            turn = self._clock() - slot.since
            if turn < self.quantum or not self._waiting:
                return
            mine = self._rank(slot, slot.served + turn)
            if min(self._rank(other, other.served) for other in self._waiting) < mine:
                self._release(slot)
                self._wait_for_turn(slot)

    def leave(self, slot: Slot) -> None:
        """``slot`` is done (finished, failed or cancelled): the next batch takes the turn."""
        with self._changed:
            if self._holder is slot:
                self._release(slot)

    def cancel(self, slot: Slot) -> None:
        """Make ``slot`` stop at its next step (or before its first)."""
        with self._changed:
            slot.cancelled = True
            self._changed.notify_all()

    def _wait_for_turn(self, slot: Slot) -> None:
        self._waiting.append(slot)
        self._hand_on()
        while self._holder is not slot:
            if slot.cancelled:
                self._waiting.remove(slot)
                raise Cancelled
            self._changed.wait()
        slot.since = self._clock()

    def _release(self, slot: Slot) -> None:
        slot.served += self._clock() - slot.since
        self._holder = None
        self._hand_on()

    def _rank(self, slot: Slot, served: float) -> tuple[int, float]:
        """Who goes first (lowest): fresh batches by arrival, then the others by time served."""
        return (0, slot.arrival) if served < self.fresh else (1, served)

    def _hand_on(self) -> None:
        """Give a free turn to the waiting batch that goes first."""
        if self._holder is None and self._waiting:
            self._holder = min(self._waiting, key=lambda s: self._rank(s, s.served))
            self._waiting.remove(self._holder)
            self._changed.notify_all()

"""Turn-taking between batches that decode in their own threads, one decoding step at a time.

Each batch runs in its own thread but only the one holding the turn computes; the others wait.
Who goes first is decided by age, the earliest virtual deadline first: a batch's arrival, moved
later by ``weight`` seconds for every second it decodes beyond its patience. A light batch's
patience is twice what its cost (source tokens × beam) predicts at the seconds per unit of cost
that recent light batches took, so light batches go first come, first served, and one that
decodes far longer than its size predicts (an output that runs to its limit) makes way for newer
ones. A heavy batch (costlier than a batch may be) has no patience and moves by
``heavy_weight``. Between two decoding steps (the search's step hook), once the holder has had
the turn for a ``quantum``, it hands the turn on to a waiting batch that goes before it. So a
light request overtakes a long one within a quantum, and since a waiting batch's deadline stays
where it is while later ones arrive later, none waits for ever: under a steady stream of light
batches a long one still gets about 1/``weight`` of the time, a heavy one 1/``heavy_weight``,
and no batch of light requests times out for want of turns. A cancelled batch (its requests
timed out or went away) stops at its next step, or before its first.
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

    cost: float = 0.0  # source tokens × beam
    heavy: bool = False  # costlier than a batch may be: no patience, ``heavy_weight``
    arrived: float | None = None  # when its requests came (default: its first ``enter``)
    served: float = 0.0  # seconds it has held the turn
    cancelled: bool = False
    since: float = 0.0  # when its current turn began
    arrival: int = -1  # its place in the order of first ``enter``s: breaks ties


class Turns:
    """Who decodes now: ``enter`` before the first step, ``between_steps`` between steps (the
    step hook), ``leave`` when done; ``cancel`` from any thread."""

    def __init__(
        self,
        quantum: float = 0.1,
        weight: float = 2.0,
        heavy_weight: float = 10.0,
        patience: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.quantum = quantum  # seconds a batch keeps the turn before it may hand it on
        self.weight = weight  # how far a second of decoding past patience puts a batch back
        self.heavy_weight = heavy_weight  # the same, for a heavy batch (from its first second)
        self.patience = patience  # a light batch's, until one has finished to learn from
        self.seconds_per_cost: float | None = None  # of recent light batches, a moving average
        self._clock = clock
        self._arrivals = itertools.count()
        self._changed = threading.Condition()
        self._holder: Slot | None = None
        self._waiting: list[Slot] = []

    def enter(self, slot: Slot) -> None:
        """Wait for ``slot``'s first turn (raises ``Cancelled`` if cancelled meanwhile)."""
        with self._changed:
            slot.arrival = next(self._arrivals)
            if slot.arrived is None:
                slot.arrived = self._clock()
            self._wait_for_turn(slot)

    def between_steps(self, slot: Slot) -> None:
        """Raise ``Cancelled`` if ``slot`` was cancelled; else, after a quantum, hand the turn to
        a waiting batch with an earlier deadline, and wait for it to come back."""
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
                if not (slot.cancelled or slot.heavy) and slot.cost > 0:
                    self._learn(slot.served / slot.cost)

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

    def _rank(self, slot: Slot, served: float) -> tuple[float, int]:
        """Who goes first (lowest): the earliest virtual deadline, arrival + weight · seconds
        decoded beyond patience."""
        assert slot.arrived is not None  # set by ``enter``
        weight = self.heavy_weight if slot.heavy else self.weight
        return slot.arrived + weight * max(0.0, served - self._patience_of(slot)), slot.arrival

    def _patience_of(self, slot: Slot) -> float:
        """Seconds ``slot`` decodes before it makes way: none for a heavy batch; twice what its
        cost predicts for a light one."""
        if slot.heavy:
            return 0.0
        if self.seconds_per_cost is None or slot.cost <= 0:
            return self.patience
        return max(self.quantum, 2 * slot.cost * self.seconds_per_cost)

    def _learn(self, seconds_per_cost: float) -> None:
        """Fold a finished light batch's seconds per unit of cost into the moving average."""
        old = self.seconds_per_cost
        self.seconds_per_cost = (
            seconds_per_cost if old is None else 0.8 * old + 0.2 * seconds_per_cost
        )

    def _hand_on(self) -> None:
        """Give a free turn to the waiting batch that goes first."""
        if self._holder is None and self._waiting:
            self._holder = min(self._waiting, key=lambda s: self._rank(s, s.served))
            self._waiting.remove(self._holder)
            self._changed.notify_all()

"""Turn-taking between decoding threads: a new batch overtakes a long one once the long one has had
its quantum, short ones go first come first served, long ones share the time, a cancelled batch
stops at its next step or before its first."""

import threading
import time

import pytest

from fanyi.decode import Cancelled
from fanyi.serve.turns import Slot, Turns


class Clock:
    """A clock that moves only when a step says so: one step = one second."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the other thread"
        time.sleep(0.001)


def run_batch(turns, clock, slot, name, steps, log, pause_after=None, resume=None):
    """A batch of ``steps`` decoding steps, each logged and one second long."""
    try:
        turns.enter(slot)
        for step in range(steps):
            log.append(f"{name}{step}")
            clock.now += 1
            if step == pause_after:
                resume.wait()
            turns.between_steps(slot)
    except Cancelled:
        log.append(f"{name} cancelled")
    finally:
        turns.leave(slot)


def start(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def test_without_a_quantum_a_new_batch_overtakes_a_long_one_at_its_next_step():
    clock, log = Clock(), []
    turns = Turns(quantum=0, fresh=0, clock=clock)
    resume = threading.Event()
    long = start(run_batch, turns, clock, Slot(), "A", 8, log, 3, resume)
    wait_until(lambda: len(log) == 4)  # A is inside its fourth step
    short = start(run_batch, turns, clock, Slot(), "B", 2, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    long.join(10), short.join(10)
    assert log == ["A0", "A1", "A2", "A3", "B0", "B1", "A4", "A5", "A6", "A7"]


def test_long_batches_share_the_time():
    clock, log = Clock(), []
    turns = Turns(quantum=0, fresh=0, clock=clock)
    resume = threading.Event()
    first = start(run_batch, turns, clock, Slot(), "A", 6, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    second = start(run_batch, turns, clock, Slot(), "B", 6, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    first.join(10), second.join(10)
    # the turn passes as soon as the other has been served less: never more than a step apart
    assert log == ["A0", "B0", "B1", "A1", "A2", "B2", "B3", "A3", "A4", "B4", "B5", "A5"]


def test_a_batch_keeps_the_turn_for_its_quantum():
    clock, log = Clock(), []
    turns = Turns(quantum=3, fresh=0, clock=clock)
    resume = threading.Event()
    first = start(run_batch, turns, clock, Slot(), "A", 6, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    second = start(run_batch, turns, clock, Slot(), "B", 6, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    first.join(10), second.join(10)
    assert log == ["A0", "A1", "A2", "B0", "B1", "B2", "B3", "A3", "A4", "A5", "B4", "B5"]


def test_fresh_batches_go_first_come_first_served_then_by_least_served():
    clock, log = Clock(), []
    turns = Turns(quantum=0, fresh=4, clock=clock)
    resume = threading.Event()
    first = start(run_batch, turns, clock, Slot(), "A", 6, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    second = start(run_batch, turns, clock, Slot(), "B", 6, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    first.join(10), second.join(10)
    # A keeps the turn while fresh (4 s); then B, fresh, goes first; then the least served
    assert log == ["A0", "A1", "A2", "A3", "B0", "B1", "B2", "B3", "B4", "A4", "A5", "B5"]


def test_a_cancelled_batch_stops_at_its_next_step_and_passes_the_turn():
    clock, log = Clock(), []
    turns = Turns(quantum=0, fresh=0, clock=clock)
    resume = threading.Event()
    slot = Slot()
    running = start(run_batch, turns, clock, slot, "A", 100, log, 1, resume)
    wait_until(lambda: len(log) == 2)
    waiting_slot = Slot()
    waiting = start(run_batch, turns, clock, waiting_slot, "B", 100, log)
    wait_until(lambda: len(turns._waiting) == 1)
    turns.cancel(waiting_slot)  # cancelled before its first step
    waiting.join(10)
    turns.cancel(slot)
    resume.set()
    running.join(10)
    assert log == ["A0", "A1", "B cancelled", "A cancelled"]
    after = Slot()
    turns.enter(after)  # the turn is free again
    turns.leave(after)


def test_cancelling_a_batch_that_holds_the_turn_raises_at_its_next_step():
    turns = Turns()
    slot = Slot()
    turns.enter(slot)
    turns.between_steps(slot)
    turns.cancel(slot)
    with pytest.raises(Cancelled):
        turns.between_steps(slot)
    turns.leave(slot)

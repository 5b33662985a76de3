"""Turn-taking between decoding threads: the earliest virtual deadline (arrival + weight · seconds
decoded) goes first, so a new batch overtakes a long one once the long one has had its quantum,
no batch starves under a stream of new ones, long ones share the time, a heavy one gets less, a
cancelled batch stops at its next step or before its first."""

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


def run_batch(turns, clock, slot, name, steps, log, pause_after=None, resume=None, each=None):
    """A batch of ``steps`` decoding steps, each logged and one second long (then ``each()``)."""
    try:
        turns.enter(slot)
        for step in range(steps):
            log.append(f"{name}{step}")
            clock.now += 1
            if step == pause_after:
                resume.wait()
            if each is not None:
                each()
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
    turns = Turns(quantum=0, patience=0, clock=clock)
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
    turns = Turns(quantum=0, patience=0, clock=clock)
    resume = threading.Event()
    first = start(run_batch, turns, clock, Slot(), "A", 6, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    second = start(run_batch, turns, clock, Slot(), "B", 6, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    first.join(10), second.join(10)
    # the turn passes as soon as the other's deadline is earlier: never more than a step apart
    assert log == ["A0", "B0", "A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5", "B5"]


def test_a_batch_keeps_the_turn_for_its_quantum():
    clock, log = Clock(), []
    turns = Turns(quantum=3, patience=0, clock=clock)
    resume = threading.Event()
    first = start(run_batch, turns, clock, Slot(), "A", 6, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    second = start(run_batch, turns, clock, Slot(), "B", 6, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    first.join(10), second.join(10)
    assert log == ["A0", "A1", "A2", "B0", "B1", "B2", "A3", "A4", "A5", "B3", "B4", "B5"]


def test_a_stream_of_new_batches_never_starves_an_old_one():
    """After every step a new two-step batch waits (B0, B1, ...): the old batch A still finishes
    in the middle of the stream (first come, first served for a batch's first second, and least
    served after it, starved it until the stream ran dry)."""
    clock, log = Clock(), []
    turns = Turns(quantum=0, clock=clock)
    threads, names, new = [], iter([f"B{k}" for k in range(8)]), []

    def a_new_batch_waits() -> None:
        if all(f"{name}0" in log for name in new) and (name := next(names, None)):
            slot = Slot()
            threads.append(start(run_batch, turns, clock, slot, name, 2, log, None, None, each))
            wait_until(lambda: slot in turns._waiting)
            new.append(name)

    each = a_new_batch_waits
    threads.append(start(run_batch, turns, clock, Slot(), "A", 4, log, None, None, each))
    wait_until(lambda: "B71" in log)
    for thread in threads:
        thread.join(10)
    assert log.index("A3") < log.index("B40")


def test_a_light_batch_keeps_its_place_for_its_patience_then_makes_way():
    clock, log = Clock(), []
    turns = Turns(quantum=0, patience=2, clock=clock)
    resume = threading.Event()
    first = start(run_batch, turns, clock, Slot(), "A", 5, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    second = start(run_batch, turns, clock, Slot(), "B", 5, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    first.join(10), second.join(10)
    # A goes on past B's arrival for 2 s; its deadline then moves 2 s per second decoded
    assert "".join(log) == "A0A1A2B0B1B2A3B3A4B4"


def test_patience_is_learned_from_the_seconds_per_cost_of_recent_batches():
    clock = Clock()
    turns = Turns(patience=1, clock=clock)
    assert turns._patience_of(Slot(cost=5)) == 1  # nothing learned yet
    done = Slot(cost=10)
    turns.enter(done)
    clock.now += 2
    turns.leave(done)
    assert turns.seconds_per_cost == 0.2
    assert turns._patience_of(Slot(cost=5)) == 2.0  # twice the 1 s that 5 units predict
    assert turns._patience_of(Slot(cost=5, heavy=True)) == 0


def test_a_heavy_batch_gets_a_smaller_share():
    clock, log = Clock(), []
    turns = Turns(quantum=0, weight=2, heavy_weight=10, patience=0, clock=clock)
    resume = threading.Event()
    heavy = start(run_batch, turns, clock, Slot(heavy=True), "H", 3, log, 0, resume)
    wait_until(lambda: len(log) == 1)
    light = start(run_batch, turns, clock, Slot(), "L", 12, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    heavy.join(10), light.join(10)
    # H's deadline: 0 + 10 · seconds decoded; L's: 1 + 2 · seconds decoded
    assert "".join(log) == "H0L0L1L2L3L4H1L5L6L7L8L9H2L10L11"


def test_a_cancelled_batch_stops_at_its_next_step_and_passes_the_turn():
    clock, log = Clock(), []
    turns = Turns(quantum=0, patience=0, clock=clock)
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

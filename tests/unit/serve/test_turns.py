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


# A first batch (name, steps, the step inside which it pauses, heavy) runs; a second (name,
# steps) arrives during the pause and waits for the turn; then both go on. The order of steps:
TWO_BATCHES = [
    pytest.param(
        {"quantum": 0, "patience": 0},
        ("A", 8, 3, False),
        ("B", 2),
        "A0A1A2A3B0B1A4A5A6A7",
        id="without a quantum a new batch overtakes a long one at its next step",
    ),
    pytest.param(  # the turn passes as soon as the other's deadline is earlier
        {"quantum": 0, "patience": 0},
        ("A", 6, 0, False),
        ("B", 6),
        "A0B0A1B1A2B2A3B3A4B4A5B5",
        id="long batches share the time, never more than a step apart",
    ),
    pytest.param(
        {"quantum": 3, "patience": 0},
        ("A", 6, 0, False),
        ("B", 6),
        "A0A1A2B0B1B2A3A4A5B3B4B5",
        id="a batch keeps the turn for its quantum",
    ),
    pytest.param(  # A goes on past B's arrival for 2 s; its deadline then moves 2 s per second
        {"quantum": 0, "patience": 2},
        ("A", 5, 0, False),
        ("B", 5),
        "A0A1A2B0B1B2A3B3A4B4",
        id="a light batch keeps its place for its patience then makes way",
    ),
    pytest.param(  # H's deadline: 0 + 10 · seconds decoded; L's: 1 + 2 · seconds decoded
        {"quantum": 0, "weight": 2, "heavy_weight": 10, "patience": 0},
        ("H", 3, 0, True),
        ("L", 12),
        "H0L0L1L2L3L4H1L5L6L7L8L9H2L10L11",
        id="a heavy batch gets a smaller share",
    ),
]


@pytest.mark.parametrize(("settings", "first", "second", "order"), TWO_BATCHES)
def test_a_running_batch_and_one_that_arrives_take_turns(settings, first, second, order):
    clock, log = Clock(), []
    turns = Turns(clock=clock, **settings)
    resume = threading.Event()
    name, steps, pause, heavy = first
    running = start(run_batch, turns, clock, Slot(heavy=heavy), name, steps, log, pause, resume)
    wait_until(lambda: len(log) == pause + 1)  # the first is inside its paused step
    arriving = start(run_batch, turns, clock, Slot(), *second, log)
    wait_until(lambda: len(turns._waiting) == 1)
    resume.set()
    running.join(10), arriving.join(10)
    assert "".join(log) == order


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

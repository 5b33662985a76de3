"""The garbage collector while a command starts: paused, then what was made frozen, in a
program only."""

from __future__ import annotations

import gc

from fanyi.cli import collector


def test_a_library_call_leaves_the_collector_alone() -> None:
    frozen = gc.get_freeze_count()
    with collector.paused_then_frozen():
        assert gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen


def test_a_program_pauses_then_freezes() -> None:
    try:
        with collector.as_program(True), collector.paused_then_frozen():
            assert not gc.isenabled()
            made = [[] for _ in range(100)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(made)
        assert not collector._PROGRAM["on"]
    finally:
        gc.unfreeze()
        gc.enable()

"""Elastic resume's bookkeeping: the epoch's position handed to another number of processes,
the accumulation that keeps the batch of a step, and per-rank generators (what a resumed run
says when the batch of a step changes: tests/integration/test_train_resume.py)."""

import pytest
import torch

from fanyi.train.state import TrainState, capture_rng, kept_accumulation, restore_rank_rng


def test_the_position_reached_joins_the_epochs_earlier_parts():
    state = TrainState(step=7, epoch=2, position=5, earlier=[[1, 4]])  # as read from JSON
    assert state.earlier == [(1, 4)]
    assert state.regrouped(2, 2) is state  # the same number of processes: nothing changes
    moved = state.regrouped(2, 3)
    assert (moved.step, moved.epoch, moved.position, moved.earlier) == (7, 2, 0, [(1, 4), (2, 5)])
    assert TrainState(epoch=3).regrouped(2, 1) == TrainState(epoch=3)  # nothing taken yet


@pytest.mark.parametrize(
    ("before", "accumulation", "now", "kept"), [(2, 1, 1, 2), (4, 2, 8, 1), (1, 4, 2, 2)]
)
def test_the_accumulation_keeps_the_batches_of_a_step(before, accumulation, now, kept):
    assert kept_accumulation(before, accumulation, now) == kept
    assert now * kept == before * accumulation


def test_a_batch_that_the_processes_cannot_share_is_refused():
    with pytest.raises(ValueError, match="2 batches per step cannot be shared by 4 processes"):
        kept_accumulation(2, 1, 4)


def _draws(rng, rank, world_size, step=9):
    restore_rank_rng(rng, rank, world_size, seed=1, step=step)
    return torch.rand(4)


def test_each_rank_gets_its_own_generator_back_or_a_fresh_one_of_its_own():
    states = []
    for seed in (10, 11):  # the states two ranks saved
        torch.manual_seed(seed)
        states.append(capture_rng()["torch"])
    rng = {**capture_rng(), "torch": states}
    torch.set_rng_state(states[1])
    expected = torch.rand(4)
    assert torch.equal(_draws(rng, rank=1, world_size=2), expected)  # resumed exactly
    fresh = [_draws(rng, rank, world_size=3) for rank in range(3)]
    assert not torch.equal(fresh[0], fresh[1]) and not torch.equal(fresh[1], fresh[2])
    assert torch.equal(_draws(rng, rank=2, world_size=3), fresh[2])  # seeded: reproducible
    assert not torch.equal(_draws(rng, rank=2, world_size=3, step=10), fresh[2])

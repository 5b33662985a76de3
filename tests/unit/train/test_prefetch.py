"""Prefetched batches: the same steps and token tensors as collating in line (across an epoch
boundary, and from a mid-epoch position as a resumed run starts), a collation's error raised in
the loop, no thread left behind; copies wait unless their source is pinned."""

import itertools
import threading

import pytest
import torch

from fanyi.data import Batch, ParallelDataset, TokenBatchSampler, collate
from fanyi.train.prefetch import THREAD_NAME, Prefetcher, background
from fanyi.train.state import TrainState
from fanyi.train.trainer import batch_stream, step_pulls

CPU = torch.device("cpu")


def dataset(n: int = 60, seed: int = 0) -> ParallelDataset:
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(1, 12, (n, 2), generator=g).tolist()
    src = [torch.randint(4, 50, (s,), generator=g).tolist() for s, _ in lengths]
    tgt = [torch.randint(4, 50, (t,), generator=g).tolist() for _, t in lengths]
    return ParallelDataset(src, tgt)


def steps(data: ParallelDataset, state: TrainState, accumulation: int = 2, ahead: bool = True):
    """A prefetcher over the loop's own stream of ``data``, from ``state``."""
    sampler = TokenBatchSampler(*data.sizes(), max_tokens=64, seed=3)
    pulls = step_pulls(batch_stream(sampler, state), accumulation)

    def collated(pulled):
        return [collate(data.examples(ids, epoch)) for epoch, _, ids in pulled]

    return Prefetcher(pulls, collated, CPU, ahead)


def prefetch_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]


def taken(data: ParallelDataset, state: TrainState, count: int, ahead: bool) -> list:
    with steps(data, state, ahead=ahead) as stream:
        return list(itertools.islice(stream, count))


def assert_same_steps(left: list, right: list) -> None:
    assert [pulled for pulled, _ in left] == [pulled for pulled, _ in right]
    for (_, ours), (_, theirs) in zip(left, right, strict=True):
        for a, b in zip(ours, theirs, strict=True):
            assert a.ntokens == b.ntokens
            for name in ("src", "tgt_in", "tgt_out"):
                assert torch.equal(getattr(a, name), getattr(b, name))


def test_prefetched_steps_are_the_in_line_steps_across_epochs():
    data = dataset()
    plain = taken(data, TrainState(), 40, ahead=False)
    assert len({epoch for pulled, _ in plain for epoch, _, _ in pulled}) > 2
    assert_same_steps(taken(data, TrainState(), 40, ahead=True), plain)
    assert not prefetch_threads()


def test_prefetched_steps_from_a_mid_epoch_position_are_those_of_a_whole_run():
    data = dataset()
    whole = taken(data, TrainState(), 30, ahead=False)
    epoch, position, _ = whole[9][0][-1]  # where a checkpoint after step 10 stands
    resumed = taken(data, TrainState(epoch=epoch, position=position), 20, ahead=True)
    assert_same_steps(resumed, whole[10:])


def test_a_collation_error_is_raised_in_the_loop_with_its_message():
    def broken(pulled):
        if pulled == 3:
            raise ValueError("example 7 has no target")
        return []

    with Prefetcher(iter(range(10)), broken, CPU, ahead=True) as stream:
        assert [next(stream) for _ in range(3)] == [(0, []), (1, []), (2, [])]
        with pytest.raises(ValueError, match="example 7 has no target"):
            next(stream)
    assert not prefetch_threads()


def test_no_thread_is_left_after_an_interrupt():
    with pytest.raises(KeyboardInterrupt), steps(dataset(), TrainState()) as stream:
        next(stream)
        assert prefetch_threads()
        raise KeyboardInterrupt
    assert not prefetch_threads()


def test_in_line_collation_starts_no_thread():
    with steps(dataset(), TrainState(), ahead=False) as stream:
        next(stream)
        assert not prefetch_threads()


@pytest.mark.parametrize(
    ("setting", "device", "ahead"),
    [
        ("auto", "cuda", True),
        ("auto", "cpu", False),
        ("always", "cpu", True),
        ("never", "cuda", False),
    ],
)
def test_auto_prefetches_on_cuda_only(setting, device, ahead):
    assert background(setting, torch.device(device)) is ahead


def test_the_thread_collates_for_the_loops_card(monkeypatch):
    cards = []
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 1)
    monkeypatch.setattr(torch.cuda, "set_device", cards.append)
    with Prefetcher(iter(range(3)), lambda pulled: [], torch.device("cuda"), True) as stream:
        assert next(stream) == (0, [])
    assert cards == [torch.device("cuda", 1)] and not prefetch_threads()


def test_a_copy_from_pageable_memory_waits_even_when_asked_not_to(monkeypatch):
    batch = collate([([5, 6], [7])])
    seen = []
    real = torch.Tensor.to

    def to(self, *args, **kwargs):
        seen.append(kwargs["non_blocking"])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "to", to)
    moved = batch.to(CPU, non_blocking=True)
    assert seen == [False, False, False]
    assert torch.equal(moved.src, batch.src) and moved.ntokens == batch.ntokens == 2
    assert isinstance(moved, Batch)

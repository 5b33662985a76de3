"""Token batching: bounded batches, each example once per epoch, seeded order, ranks."""

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fanyi.data.batching import (
    MappedDataset,
    ParallelDataset,
    TokenBatchSampler,
    collate,
    padding_fraction,
)
from fanyi.data.shards import FORMAT, ShardIndex, ShardWriter, TokenShards, id_dtype
from fanyi.data.vocab import BOS_ID, EOS_ID, PAD_ID

_sizes = st.lists(st.tuples(st.integers(1, 40), st.integers(1, 40)), min_size=1, max_size=120)


def _sampler(sizes, max_tokens, **kwargs) -> TokenBatchSampler:
    return TokenBatchSampler([s for s, _ in sizes], [t for _, t in sizes], max_tokens, **kwargs)


def _cost(batch, sizes) -> int:
    return len(batch) * max(max(sizes[i]) for i in batch)


def test_collate_adds_bos_eos_and_pads():
    batch = collate([([10, 11, 12], [20]), ([13], [21, 22, 23])])
    eos, bos, pad = EOS_ID, BOS_ID, PAD_ID
    assert batch.src.tolist() == [[10, 11, 12, eos], [13, eos, pad, pad]]
    assert batch.tgt_in.tolist() == [[bos, 20, pad, pad], [bos, 21, 22, 23]]
    assert batch.tgt_out.tolist() == [[20, eos, pad, pad], [21, 22, 23, eos]]
    assert batch.ntokens == 6 and batch.src.dtype == torch.long


def _padded(rows, width, before=(), after=()):
    """The padding written out row by row: the reference the vectorised one must match."""
    return [[*before, *row, *after] + [PAD_ID] * (width - len(row)) for row in rows]


_rows = st.lists(st.lists(st.integers(4, 9_000), max_size=9), min_size=1, max_size=20)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_rows.map(lambda r: r[0]), _rows.map(lambda r: r[0])), min_size=1))
def test_collate_pads_any_rows_as_written_out_row_by_row_lists_or_arrays(examples):
    sources, targets = [s for s, _ in examples], [t for _, t in examples]
    s, t = max(map(len, sources)), max(map(len, targets))
    for given_as in (list, lambda row: np.array(row, dtype=np.uint16)):
        batch = collate([(given_as(a), given_as(b)) for a, b in examples])
        assert batch.src.tolist() == _padded(sources, s, after=[EOS_ID])
        assert batch.tgt_in.tolist() == _padded(targets, t, before=[BOS_ID])
        assert batch.tgt_out.tolist() == _padded(targets, t, after=[EOS_ID])
        assert batch.ntokens == sum(map(len, targets)) + len(targets)


def test_a_prepared_split_gathers_the_batch_collate_makes(tmp_path):
    sources, targets = [[5, 6, 7], [8], [], [9, 10]], [[11], [12, 13, 14], [15], []]
    dataset = _mapped_split(tmp_path, sources, targets, shard_lines=3)
    for indices in ([0, 1, 2, 3], [3, 0], [2]):
        ours, reference = dataset.batch(indices, 0), collate([dataset[i] for i in indices])
        for name in ("src", "tgt_in", "tgt_out"):
            assert torch.equal(getattr(ours, name), getattr(reference, name))
        assert ours.ntokens == reference.ntokens


def _mapped_split(folder, sources, targets, shard_lines):
    """Token shards of ``sources``/``targets`` written as ``fanyi prepare`` writes them."""
    index = ShardIndex(FORMAT, id_dtype(16_000), shard_lines, {"train": len(sources)})
    for side, lines in (("src", sources), ("tgt", targets)):
        writer = ShardWriter(folder, "train", side, index)
        ids = np.array([i for line in lines for i in line], dtype=np.int64)
        writer.add(ids, np.array([len(line) for line in lines], dtype=np.int64))
        writer.flush()
    index.save(folder)
    shards = (TokenShards(folder, index, "train", side) for side in ("src", "tgt"))
    return MappedDataset(*shards)


@settings(max_examples=150, deadline=None)
@given(_sizes, st.integers(1, 200), st.integers(0, 5))
def test_every_example_once_and_no_batch_over_max_tokens(sizes, max_tokens, epoch):
    sampler = _sampler(sizes, max_tokens, seed=3)
    sampler.set_epoch(epoch)
    batches = list(sampler)
    assert sorted(i for b in batches for i in b) == list(range(len(sizes)))
    assert len(batches) == len(sampler)
    for batch in batches:  # an example too large on its own is alone in its batch
        assert _cost(batch, sizes) <= max_tokens or len(batch) == 1


@given(_sizes, st.integers(20, 200), st.integers(0, 100))
def test_same_seed_and_epoch_give_the_same_order(sizes, max_tokens, seed):
    first, second = _sampler(sizes, max_tokens, seed=seed), _sampler(sizes, max_tokens, seed=seed)
    for epoch in (0, 1):
        first.set_epoch(epoch)
        second.set_epoch(epoch)
        assert list(first) == list(second)


def test_ranks_cannot_share_an_odd_number_of_single_example_batches():
    with pytest.raises(ValueError, match="raise max_tokens"):
        list(_sampler([(30, 30)] * 3, 40, world_size=2))


def test_epochs_reshuffle():
    sizes = [(5, 5)] * 200
    sampler = _sampler(sizes, 50, seed=0)
    orders = []
    for epoch in (0, 1):
        sampler.set_epoch(epoch)
        orders.append(list(sampler))
    assert orders[0] != orders[1]


@settings(max_examples=150, deadline=None)
@given(_sizes, st.integers(80, 300), st.integers(1, 4))
def test_ranks_get_equal_disjoint_shares_covering_all(sizes, max_tokens, world_size):
    assume(len(sizes) >= world_size)  # max_tokens >= 2 x 40: any two examples share a batch
    shares = [
        list(_sampler(sizes, max_tokens, seed=7, rank=r, world_size=world_size))
        for r in range(world_size)
    ]
    assert len({len(share) for share in shares}) == 1
    indices = [i for share in shares for b in share for i in b]
    assert sorted(indices) == list(range(len(sizes)))


def test_length_bucketing_keeps_padding_low():
    gen = torch.Generator().manual_seed(0)
    src_lengths = torch.randint(2, 60, (2000,), generator=gen)
    noise = torch.randint(-3, 4, (2000,), generator=gen)  # translations have similar lengths
    tgt_lengths = (src_lengths + noise).clamp(min=1)
    sizes = list(zip(src_lengths.tolist(), tgt_lengths.tolist(), strict=True))
    src, tgt = [s for s, _ in sizes], [t for _, t in sizes]
    bucketed = padding_fraction(list(_sampler(sizes, 2000)), src, tgt)
    fixed = padding_fraction(
        [list(range(i, min(i + 64, 2000))) for i in range(0, 2000, 64)], src, tgt
    )
    assert bucketed < 0.25 < fixed


def test_padding_fraction_by_hand():
    # Batch [0, 1]: src 2 x 3 cells with 3 + 1 real, tgt 2 x 2 with 2 + 2 → 2 pads in 10 cells.
    assert padding_fraction([[0, 1]], [3, 1], [2, 2]) == pytest.approx(2 / 10)


def test_collated_batches_stay_within_budget():
    dataset = ParallelDataset(
        [[5] * n for n in range(1, 30)], [[6] * (30 - n) for n in range(1, 30)]
    )
    src_sizes, tgt_sizes = dataset.sizes()
    sampler = TokenBatchSampler(src_sizes, tgt_sizes, max_tokens=90, seed=1)
    batches = [collate([dataset[i] for i in indices]) for indices in sampler]
    assert sum(len(b.src) for b in batches) == len(dataset)
    for batch in batches:
        assert batch.src.numel() <= 90 and batch.tgt_in.shape == batch.tgt_out.shape


def _shares(sampler_of, world_size: int, epoch: int, earlier=()) -> list[list[list[int]]]:
    """Each rank's batches of ``epoch`` for ``world_size`` ranks."""
    shares = []
    for rank in range(world_size):
        sampler = sampler_of(rank, world_size)
        sampler.set_epoch(epoch, earlier)
        shares.append(list(sampler))
    return shares


@settings(max_examples=150, deadline=None)
@given(
    _sizes,
    st.integers(80, 300),
    st.lists(st.tuples(st.integers(1, 4), st.floats(0, 1)), min_size=1, max_size=3),
    st.integers(1, 4),
)
def test_an_epoch_resumed_on_other_numbers_of_ranks_sees_every_example_once(
    sizes, max_tokens, earlier_runs, world_size
):
    """Ranks of N processes take part of an epoch, then of M, ...: what each took, and what the
    last ones share (equally), hold every example exactly once."""
    assume(len(sizes) >= max(w for w, _ in [*earlier_runs, (world_size, 0)]))

    def sampler_of(rank, ranks):
        return _sampler(sizes, max_tokens, seed=5, rank=rank, world_size=ranks)

    seen, earlier, left = [], [], []
    for ranks, share in [*earlier_runs, (world_size, 1.0)]:  # each takes a part of its shares
        try:
            shares = _shares(sampler_of, ranks, 2, earlier)
        except ValueError:  # refused: fewer examples left than a batch for every rank needs
            assert sum(map(len, left)) < -(-len(left) // ranks) * ranks
            return
        assert len({len(batches) for batches in shares}) == 1
        taken = round(share * len(shares[0]))
        seen += [i for batches in shares for b in batches[:taken] for i in b]
        earlier.append((ranks, taken))
        left = [b for batches in shares for b in batches[taken:]]
    assert sorted(seen) == list(range(len(sizes)))


def test_the_rest_of_an_epoch_keeps_its_batches_and_their_order():
    """Resumed by 1 rank after 2 took 3 batches each, the epoch goes on with the 2 ranks'
    remaining batches, interleaved as they were, none cut: the same batches, in order."""
    sizes = [(n % 17 + 1, n % 13 + 1) for n in range(300)]
    both = _sampler(sizes, 120, seed=1, world_size=2).batches()
    alone = _sampler(sizes, 120, seed=1)
    alone.set_epoch(0, [(2, 3)])
    assert list(alone) == both[6:]
    alone.set_epoch(1)  # the next epoch is the one rank's own
    fresh = _sampler(sizes, 120, seed=1)
    fresh.set_epoch(1)
    assert list(alone) == fresh.batches()


def test_what_is_left_of_an_epoch_too_small_to_share_is_refused_by_name():
    sampler = _sampler([(30, 30)] * 4, 30, world_size=3)  # 4 batches; 2 ranks took one each
    sampler.set_epoch(0, [(2, 1)])  # leaving 2 examples for 3 ranks
    with pytest.raises(ValueError, match="2 examples left of epoch 0 cannot be shared by 3"):
        list(sampler)


def _reference_batches(src, tgt, max_tokens, seed, epoch, world_size):
    """The batches of fanyi before token shards: lexsort, then a Python loop cutting greedily."""
    import numpy as np

    src, tgt = np.asarray(src), np.asarray(tgt)
    sizes = np.maximum(src, tgt)
    rng = np.random.default_rng([seed, epoch])
    ties = rng.permutation(len(sizes))
    order = ties[np.lexsort((tgt[ties], src[ties], sizes[ties]))]
    batches, longest = [[]], 0
    for i in order.tolist():
        if batches[-1] and (len(batches[-1]) + 1) * max(longest, int(sizes[i])) > max_tokens:
            batches.append([])
            longest = 0
        batches[-1].append(i)
        longest = max(longest, int(sizes[i]))
    while len(batches) % world_size:  # as _even_out
        largest = max(range(len(batches)), key=lambda i: len(batches[i]))
        if len(batches[largest]) < 2:
            raise ValueError("one-example batches")
        batch = batches.pop(largest)
        batches[largest:largest] = [batch[: len(batch) // 2], batch[len(batch) // 2 :]]
    return [batches[i] for i in rng.permutation(len(batches))]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300)), min_size=2, max_size=150),
    st.integers(1, 1200),
    st.integers(0, 3),
    st.sampled_from([1, 2]),
)
def test_batches_are_those_of_the_list_based_sampler(sizes, max_tokens, epoch, world_size):
    """The sort and cut over size arrays (what token shards give) batch as the loop did."""
    src, tgt = [s for s, _ in sizes], [t for _, t in sizes]
    try:
        expected = _reference_batches(src, tgt, max_tokens, 5, epoch, world_size)
    except ValueError:  # one-example batches that ranks cannot share: refused either way
        return
    sampler = TokenBatchSampler(src, tgt, max_tokens, seed=5, world_size=world_size)
    sampler.set_epoch(epoch)
    assert sampler.batches() == expected

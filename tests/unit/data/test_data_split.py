"""The split: seeded, a partition, no sentence of dev or test in train, and the same as the
in-memory union-find of earlier versions gave (the bundled model's test split depends on it)."""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fanyi.data.build.split import SPLITS, components, leak_free_split
from fanyi.data.build.spool import text_hash

# Few distinct sentences, so that many pairs share a side and components chain.
_pairs = st.lists(st.tuples(st.sampled_from("abcdefgh"), st.sampled_from("ABCDEFGH")), max_size=60)


def _keys(pairs):
    """The sentence hashes of each side, as prepare gives them to the split."""
    return tuple(np.array([text_hash(p[side]) for p in pairs], dtype=np.uint64) for side in (0, 1))


def _split(pairs, dev_size, test_size, seed, by_content=False):
    chosen = leak_free_split(*_keys(pairs), dev_size, test_size, seed, by_content=by_content)
    return {name: indices.tolist() for name, indices in chosen.items()}


def _reference_split(pairs, dev_size, test_size, seed):
    """The split as fanyi 0.x made it: union-find over the sentences themselves."""
    parent = list(range(len(pairs)))

    def find(i):
        while parent[i] != i:
            i = parent[i]
        return i

    first_with = {}
    for i, pair in enumerate(pairs):
        for side, sentence in enumerate(pair):
            j = first_with.setdefault((side, sentence), i)
            parent[find(i)] = find(j)
    groups = {}
    for i in range(len(pairs)):
        groups.setdefault(find(i), []).append(i)
    ordered = sorted(groups.values())
    random.Random(seed).shuffle(ordered)
    chosen = {name: [] for name in SPLITS}
    limits = {"test": test_size, "dev": dev_size}
    for group in ordered:
        name = next((n for n, s in limits.items() if len(chosen[n]) + len(group) <= s), "train")
        chosen[name].extend(group)
    return {name: sorted(indices) for name, indices in chosen.items()}


def test_components_link_shared_sources_and_targets():
    pairs = [("a", "X"), ("b", "Y"), ("a", "Z"), ("c", "Z"), ("d", "W"), ("b", "V")]
    assert components(*_keys(pairs)).tolist() == [0, 1, 0, 0, 4, 1]


def test_a_long_chain_is_one_component():
    n = 1000  # pair i shares its source with i - 1 (odd i) or its target (even i)
    src = np.array([i - i % 2 for i in range(n)])
    tgt = np.array([i + i % 2 for i in range(n)])
    assert components(src[::-1], tgt[::-1]).tolist() == [0] * n


@settings(max_examples=200, deadline=None)
@given(_pairs, st.integers(0, 20), st.integers(0, 20), st.integers(0, 2**32))
def test_split_is_the_union_find_split_of_earlier_versions(pairs, dev_size, test_size, seed):
    assert _split(pairs, dev_size, test_size, seed) == _reference_split(
        pairs, dev_size, test_size, seed
    )


@settings(max_examples=200, deadline=None)
@given(_pairs, st.integers(0, 20), st.integers(0, 20), st.integers(0, 2**32), st.booleans())
def test_split_is_a_leak_free_partition_within_its_sizes(
    pairs, dev_size, test_size, seed, by_content
):
    chosen = _split(pairs, dev_size, test_size, seed, by_content)
    assert sorted(i for indices in chosen.values() for i in indices) == list(range(len(pairs)))
    assert len(chosen["dev"]) <= dev_size and len(chosen["test"]) <= test_size
    train = [pairs[i] for i in chosen["train"]]
    for held_out in ("dev", "test"):
        for src, tgt in (pairs[i] for i in chosen[held_out]):
            assert all(src != s and tgt != t for s, t in train)
    dev_sides = {side for i in chosen["dev"] for side in pairs[i]}
    assert not dev_sides & {side for i in chosen["test"] for side in pairs[i]}


def test_seed_changes_the_split_and_sizes_are_met_when_components_are_small():
    pairs = [(f"s{i}", f"t{i}") for i in range(100)]
    first, second = _split(pairs, 10, 20, 1), _split(pairs, 10, 20, 2)
    assert (len(first["dev"]), len(first["test"]), len(first["train"])) == (10, 20, 70)
    assert first != second and first == _split(pairs, 10, 20, 1)


def _held_out(pairs, chosen):
    return {name: {pairs[i] for i in chosen[name]} for name in SPLITS}


def test_a_split_by_content_keeps_its_held_out_pairs_when_the_corpus_grows():
    """A rebuilt source (a later snapshot: 15 pairs more, in another order) keeps every test
    pair out of train, and moves at most 15 dev pairs into it."""
    old = [(f"source {i}", f"目标 {i}") for i in range(2000)]
    new = [(f"source {i}", f"目标 {i}") for i in range(2015)]
    random.Random(7).shuffle(new)
    before = _held_out(old, _split(old, 100, 100, 1234, by_content=True))
    after = _held_out(new, _split(new, 100, 100, 1234, by_content=True))
    assert len(after["test"]) == len(after["dev"]) == 100
    assert not before["test"] & after["train"]
    assert len(before["dev"] & after["train"]) <= 15
    assert len(before["test"] & after["test"]) >= 85
    shuffled = old[::-1]  # the order alone changes nothing
    assert _held_out(shuffled, _split(shuffled, 100, 100, 1234, by_content=True)) == before
    assert _split(old, 100, 100, 1, by_content=True) != _split(old, 100, 100, 2, by_content=True)

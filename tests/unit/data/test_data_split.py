"""The split: seeded, a partition, and no sentence of dev or test in train."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fanyi.data.split import components, leak_free_split

# Few distinct sentences, so that many pairs share a side and components chain.
_pairs = st.lists(st.tuples(st.sampled_from("abcdefgh"), st.sampled_from("ABCDEFGH")), max_size=60)


def test_components_link_shared_sources_and_targets():
    pairs = [("a", "X"), ("b", "Y"), ("a", "Z"), ("c", "Z"), ("d", "W"), ("b", "V")]
    assert components(pairs) == [[0, 2, 3], [1, 5], [4]]


@settings(max_examples=200, deadline=None)
@given(_pairs, st.integers(0, 20), st.integers(0, 20), st.integers(0, 2**32))
def test_split_is_a_leak_free_partition_within_its_sizes(pairs, dev_size, test_size, seed):
    chosen = leak_free_split(pairs, dev_size, test_size, seed)
    assert sorted(i for indices in chosen.values() for i in indices) == list(range(len(pairs)))
    assert len(chosen["dev"]) <= dev_size and len(chosen["test"]) <= test_size
    train = [pairs[i] for i in chosen["train"]]
    for held_out in ("dev", "test"):
        for src, tgt in (pairs[i] for i in chosen[held_out]):
            assert all(src != s and tgt != t for s, t in train)
    dev_sides = {side for i in chosen["dev"] for side in pairs[i]}
    assert not dev_sides & {side for i in chosen["test"] for side in pairs[i]}


@given(_pairs, st.integers(0, 2**32))
def test_same_seed_same_split(pairs, seed):
    assert leak_free_split(pairs, 5, 5, seed) == leak_free_split(list(pairs), 5, 5, seed)


def test_seed_changes_the_split_and_sizes_are_met_when_components_are_small():
    pairs = [(f"s{i}", f"t{i}") for i in range(100)]
    first, second = leak_free_split(pairs, 10, 20, 1), leak_free_split(pairs, 10, 20, 2)
    assert (len(first["dev"]), len(first["test"]), len(first["train"])) == (10, 20, 70)
    assert first != second

"""A seeded train/dev/test split without leakage, over sentence hashes.

Pairs that share a source sentence or a target sentence are linked; linked pairs form connected
components, and a component always goes to one split as a whole. So no dev or test sentence, on
either side, ever appears in train. The sentences are given as integer keys (64-bit hashes from
:mod:`fanyi.data.build.spool`), so millions of pairs take a few arrays of memory.
"""

from __future__ import annotations

import random

import numpy as np

SPLITS = ("train", "dev", "test")


def components(*keys: np.ndarray) -> np.ndarray:
    """The component of every pair, named by its first pair's index; ``keys``: one array per
    side, equal keys linking their pairs.

    Minimum-label propagation: each pair takes the smallest label among the pairs sharing one
    of its keys, and labels jump to their label's label, until nothing changes. Labels only
    travel along links and the first pair of a component never changes its own, so every pair
    ends with the index of the first pair of its component.
    """
    n = len(keys[0])
    codes = [np.unique(k, return_inverse=True)[1].reshape(-1) for k in keys]
    label = np.arange(n)
    while True:
        before = label
        for code in codes:
            lowest = np.full(int(code.max(initial=-1)) + 1, n)
            np.minimum.at(lowest, code, label)
            label = np.minimum(label, lowest[code])
        label = label[label]
        if np.array_equal(label, before):
            return label


def leak_free_split(
    src_keys: np.ndarray,
    tgt_keys: np.ndarray,
    dev_size: int,
    test_size: int,
    seed: int,
    by_content: bool = False,
) -> dict[str, np.ndarray]:
    """Indices (in input order) of the pairs in train, dev and test.

    Components, in the order of their first pair, are shuffled with ``random.Random(seed)`` and
    dealt out in that order: one goes to test if it still fits in ``test_size`` pairs, else to
    dev if it fits in ``dev_size``, else to train. Dev and test hold at most their size
    (slightly less when the last components do not fit). ``by_content`` deals them in the order
    of :func:`content_order` instead, so that a corpus that gains or loses a few pairs keeps the
    rest of its split.
    """
    labels = components(src_keys, tgt_keys)
    firsts, group, sizes = np.unique(labels, return_inverse=True, return_counts=True)
    if by_content:
        order = content_order(src_keys, group.reshape(-1), len(firsts), seed).tolist()
    else:
        order = list(range(len(firsts)))
        random.Random(seed).shuffle(order)
    target = np.zeros(len(firsts), dtype=np.int8)  # index into SPLITS
    room, smallest = {2: test_size, 1: dev_size}, int(sizes.min(initial=1))
    for g in order:
        if max(room.values()) < smallest:
            break  # nothing fits any more: the rest is train
        size = int(sizes[g])
        name = next((n for n, left in room.items() if size <= left), 0)
        if name:
            target[g], room[name] = name, room[name] - size
    chosen = target[group.reshape(-1)]
    return {name: np.flatnonzero(chosen == i) for i, name in enumerate(SPLITS)}


def content_order(keys: np.ndarray, group: np.ndarray, count: int, seed: int) -> np.ndarray:
    """The ``count`` components ordered by a seeded 64-bit mix (SplitMix64's finaliser) of the
    smallest key among their pairs: a component's place depends on its own sentences only, not
    on where in the corpus they stand or what else the corpus holds."""
    smallest = np.full(count, np.iinfo(np.uint64).max, dtype=np.uint64)
    np.minimum.at(smallest, group, keys.astype(np.uint64))
    mixed = smallest ^ np.uint64(seed * 0x9E3779B97F4A7C15 % 2**64)
    for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
        mixed = (mixed ^ (mixed >> np.uint64(shift))) * np.uint64(factor)
    return np.argsort(mixed ^ (mixed >> np.uint64(31)), kind="stable")

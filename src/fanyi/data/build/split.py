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
    src_keys: np.ndarray, tgt_keys: np.ndarray, dev_size: int, test_size: int, seed: int
) -> dict[str, np.ndarray]:
    """Indices (in input order) of the pairs in train, dev and test.

    Components, in the order of their first pair, are shuffled with ``random.Random(seed)`` and
    dealt out in that order: one goes to test if it still fits in ``test_size`` pairs, else to
    dev if it fits in ``dev_size``, else to train. Dev and test hold at most their size
    (slightly less when the last components do not fit).
    """
    firsts, group, sizes = np.unique(
        components(src_keys, tgt_keys), return_inverse=True, return_counts=True
    )
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

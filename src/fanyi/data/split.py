"""A seeded train/dev/test split without leakage.

Pairs that share a source sentence or a target sentence are linked; linked pairs form connected
components (union-find), and a component always goes to one split as a whole. So no dev or test
sentence, on either side, ever appears in train.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .corpus import Pair

SPLITS = ("train", "dev", "test")


def _find(parent: list[int], i: int) -> int:
    """Root of ``i``, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def components(pairs: Sequence[Pair]) -> list[list[int]]:
    """Groups of pair indices linked by a shared source or target, each sorted, ordered by start."""
    parent = list(range(len(pairs)))
    first_with: dict[tuple[int, str], int] = {}  # (side, sentence) → first pair that has it
    for i, pair in enumerate(pairs):
        for side, sentence in enumerate(pair):
            j = first_with.setdefault((side, sentence), i)
            parent[_find(parent, i)] = _find(parent, j)
    groups: dict[int, list[int]] = {}
    for i in range(len(pairs)):
        groups.setdefault(_find(parent, i), []).append(i)
    return sorted(groups.values())


def leak_free_split(
    pairs: Sequence[Pair], dev_size: int, test_size: int, seed: int
) -> dict[str, list[int]]:
    """Indices (in input order) of the pairs in train, dev and test.

    Components are shuffled with ``seed`` and dealt out in that order: one goes to test if it
    still fits in ``test_size`` pairs, else to dev if it fits in ``dev_size``, else to train. Dev
    and test hold at most their size (slightly less when the last components do not fit).
    """
    groups = components(pairs)
    random.Random(seed).shuffle(groups)
    chosen: dict[str, list[int]] = {name: [] for name in SPLITS}
    limits = {"test": test_size, "dev": dev_size}
    for group in groups:
        name = next(
            (n for n, size in limits.items() if len(chosen[n]) + len(group) <= size), "train"
        )
        chosen[name].extend(group)
    return {name: sorted(indices) for name, indices in chosen.items()}

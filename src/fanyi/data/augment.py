"""Concatenation augmentation (Nguyen, Murray & Chiang 2021): pairs joined into paragraphs.

A model trained on single sentences learns to stop after one: given a paragraph it translates
the first sentence and drops the rest. Adding training pairs made of 2–3 random pairs joined
(each side joined in its own language's way) teaches it to carry on to the end.
"""

from __future__ import annotations

import random

from ..lang import join_sentences
from .corpus import Pair


def concatenations(
    pairs: list[Pair], fraction: float, max_join: int, seed: int, langs: tuple[str, str]
) -> list[Pair]:
    """``round(fraction × len(pairs))`` new pairs, each 2..``max_join`` random ``pairs`` joined.

    Deterministic for a given ``seed``; ``pairs`` themselves are not changed.
    """
    count = round(fraction * len(pairs)) if len(pairs) >= 2 else 0
    rng = random.Random(seed)
    joined = []
    for _ in range(count):
        chosen = rng.sample(pairs, rng.randint(2, min(max_join, len(pairs))))
        joined.append(
            (
                join_sentences([src for src, _ in chosen], langs[0]),
                join_sentences([tgt for _, tgt in chosen], langs[1]),
            )
        )
    return joined

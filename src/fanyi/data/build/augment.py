"""Concatenation augmentation (Nguyen, Murray & Chiang 2021): pairs joined into paragraphs.

A model trained on single sentences learns to stop after one: given a paragraph it translates
the first sentence and drops the rest. Adding training pairs made of 2–3 random pairs joined
(each side joined in its own language's way) teaches it to carry on to the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ...text.lang import join_sentences
from .corpus import Pair


def concatenations(
    pairs: Sequence[Pair], fraction: float, max_join: int, seed: int, langs: tuple[str, str]
) -> Iterator[Pair]:
    """``round(fraction × len(pairs))`` new pairs, each 2..``max_join`` random ``pairs`` joined.

    Deterministic for a given ``seed``. The pairs are drawn by index (``random.sample`` of a
    range picks what it picks from a list of that length), so ``pairs`` may be a file read at
    random.
    """
    count = round(fraction * len(pairs)) if len(pairs) >= 2 else 0
    rng = random.Random(seed)
    for _ in range(count):
        chosen = [
            pairs[i]
            for i in rng.sample(range(len(pairs)), rng.randint(2, min(max_join, len(pairs))))
        ]
        yield (
            join_sentences([src for src, _ in chosen], langs[0]),
            join_sentences([tgt for _, tgt in chosen], langs[1]),
        )

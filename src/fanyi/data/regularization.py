"""Subword regularisation (Kudo 2018): a training split whose pairs are segmented anew each
time they are used.

The unigram model gives every segmentation of a sentence a probability; sampling one from
P(x)^α (§3.2) instead of always taking the best shows the model the same sentence in many
spellings, which regularises a model trained for many epochs on a small corpus. Batches are
still cut from the best segmentation's lengths (a sample is longer by ~13% at α 0.2 and ~21% at
α 0.1 on the bundled vocabulary); the sample of example i in epoch e is seeded by (seed, e, i)
alone, so it does not depend on the batching, the rank or a resume.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import sentencepiece as spm

from .batching import Example, ParallelDataset, load_split
from .manifest import SIDES, split_file
from .vocab import Vocab


class SampledSegmentations(ParallelDataset):
    """A split's text and its best-segmentation ids; :meth:`examples` samples new ids."""

    def __init__(
        self,
        best: ParallelDataset,
        texts: tuple[list[str], list[str]],
        vocabs: tuple[Vocab, Vocab],
        alpha: float,
        seed: int,
    ) -> None:
        super().__init__(best.src, best.tgt)
        self.best = best
        if not 0 < alpha <= 1:
            raise ValueError(f"subword sampling needs 0 < alpha ≤ 1, got {alpha}")
        self.texts, self.vocabs, self.alpha, self.seed = texts, vocabs, alpha, seed

    @classmethod
    def load(
        cls, data_dir: str | Path, split: str, vocabs: tuple[Vocab, Vocab], alpha: float, seed: int
    ) -> SampledSegmentations:
        """``split`` of a prepared data directory (as ``load_split``), sampled with ``alpha``."""
        src, tgt = (
            (Path(data_dir) / split_file(split, side)).read_text(encoding="utf-8").splitlines()
            for side in SIDES
        )
        return cls(load_split(data_dir, split, vocabs), (src, tgt), vocabs, alpha, seed)

    def sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """The best segmentation's sizes (from the shards' offsets, for a prepared split)."""
        return self.best.sizes()

    def examples(self, indices: Sequence[int], epoch: int) -> list[Example]:
        """Sampled segmentations of the examples ``indices`` in ``epoch``."""
        (src_vocab, tgt_vocab), (src, tgt) = self.vocabs, self.texts
        out = []
        for i in indices:
            spm.set_random_generator_seed(sample_seed(self.seed, epoch, i))
            out.append((src_vocab.encode(src[i], self.alpha), tgt_vocab.encode(tgt[i], self.alpha)))
        return out


def sample_seed(seed: int, epoch: int, index: int) -> int:
    """SentencePiece's seed for example ``index`` in ``epoch`` (a 31-bit mix of the three)."""
    return (((seed * 1_000_003) ^ epoch) * 2_654_435_761 + index) % (2**31 - 1)

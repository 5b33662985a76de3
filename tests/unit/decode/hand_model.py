"""A stand-in for the Transformer whose next-token probabilities are set by hand.

It implements the incremental-decoding interface the searches use (``start_decoding``,
``decode_step``, ``generator.logits``, ``config``, a state with ``select``/``reorder``) and
records the batch size of every step.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from types import SimpleNamespace

import torch
from torch import Tensor

PAD, BOS, EOS = 0, 1, 2
VOCAB = 6  # pad, bos, eos and the words 3, 4, 5
WORDS = (EOS, 3, 4, 5)

Table = Callable[[tuple[int, ...], tuple[int, ...]], dict[int, float]]  # (source, prefix) → probs


def random_table(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """A fixed, arbitrary distribution over EOS and the words for each (source, prefix)."""
    rng = random.Random(hash((source, prefix)))
    weights = [rng.random() ** 2 + 0.01 for _ in WORDS]
    return {w: x / sum(weights) for w, x in zip(WORDS, weights, strict=True)}


class HandState:
    """Per row: the source and the tokens fed so far (BOS first)."""

    def __init__(self, sources: list[tuple[int, ...]]) -> None:
        self.sources = sources
        self.prefixes: list[tuple[int, ...]] = [() for _ in sources]

    def select(self, index: Tensor) -> None:
        rows = index.tolist()
        self.sources = [self.sources[i] for i in rows]
        self.prefixes = [self.prefixes[i] for i in rows]

    reorder = select


class HandModel:
    """``decode_step`` returns the hand-set log-probabilities as its hidden state."""

    def __init__(self, table: Table = random_table) -> None:
        self.table = table
        self.config = SimpleNamespace(pad_id=PAD, max_len=64, tgt_vocab_size=VOCAB)
        self.generator = SimpleNamespace(logits=lambda hidden: hidden)
        self.batch_sizes: list[int] = []

    def start_decoding(self, src: Tensor, beams: int = 1) -> HandState:
        sources = [tuple(t for t in row if t != PAD) for row in src.tolist()]
        return HandState([source for source in sources for _ in range(beams)])

    def decode_step(
        self, tokens: Tensor, state: HandState, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor]]:
        b = tokens.size(0)
        self.batch_sizes.append(b)
        state.prefixes = [
            (*p, t) for p, t in zip(state.prefixes, tokens[:, 0].tolist(), strict=True)
        ]
        log_probs = torch.full((b, 1, VOCAB), float("-inf"), dtype=torch.float64)
        for row, (source, prefix) in enumerate(zip(state.sources, state.prefixes, strict=True)):
            for token, p in self.table(source, prefix[1:]).items():
                log_probs[row, 0, token] = math.log(p)
        s = max(len(src) for src in state.sources)
        weights = [torch.full((b, 2, 1, s), 1.0 / s)] if need_weights else []
        return log_probs, weights

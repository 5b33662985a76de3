"""Sources longer than the model's positions: a clear error, or split into pieces and joined.

Splitting here cuts a sequence of ids into near-equal consecutive pieces; a caller that has the
text (the Translator) should split on sentence boundaries first, which translates better.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor

from .config import DecodeConfig
from .hypothesis import Hypothesis, finish


def check_lengths(lengths: Tensor, max_len: int) -> None:
    """Raise a clear ``ValueError`` if any source length (``lengths``: b) exceeds ``max_len``."""
    longest = int(lengths.max()) if lengths.numel() else 0
    if longest > max_len:
        raise ValueError(
            f"a source has {longest} tokens but the model reads at most max_len={max_len}; "
            "shorten it, split it into sentences, or decode with long_input='split'"
        )


def split_long_sources(
    src: Tensor, lengths: Tensor, max_len: int, pad_id: int
) -> tuple[Tensor, list[int]]:
    """Cut every source into near-equal pieces of at most ``max_len`` tokens.

    Returns the pieces (p x max_len, right-padded) and, for each piece, its source's index.
    """
    pieces: list[list[int]] = []
    owner: list[int] = []
    for i, (row, length) in enumerate(zip(src.tolist(), lengths.tolist(), strict=True)):
        ids = row[:length]
        size = math.ceil(length / max(1, math.ceil(length / max_len))) or 1
        for start in range(0, max(length, 1), size):
            pieces.append(ids[start : start + size])
            owner.append(i)
    padded = torch.full((len(pieces), max(map(len, pieces))), pad_id, dtype=src.dtype)
    for i, ids in enumerate(pieces):
        padded[i, : len(ids)] = torch.tensor(ids, dtype=src.dtype)
    return padded, owner


def join_pieces(
    results: list[list[Hypothesis]], owner: list[int], config: DecodeConfig
) -> list[list[Hypothesis]]:
    """One hypothesis per source: its pieces' best translations in order, log-probs summed."""
    parts: dict[int, list[Hypothesis]] = {}
    for hyps, source in zip(results, owner, strict=True):
        parts.setdefault(source, []).append(hyps[0])
    joined = []
    for source in sorted(parts):
        best = parts[source]
        if len(best) == 1:
            joined.append([best[0]])
            continue
        tokens = [t for h in best for t in h.tokens]
        joined.append([finish(tokens, sum(h.log_prob for h in best), config.length_penalty)])
    return joined

"""Sources longer than the model's positions: a clear error, or split into pieces and joined.

Splitting cuts a sequence of ids into near-equal consecutive pieces. The Translator cuts a
sentence's text ids into pieces that each fit with the language tag and EOS, and a pair scored
by the model (a backward score) into pieces that fit on both sides; ``decode`` cuts a raw source
that does not fit (only a caller that has no text: the Translator's pieces always fit).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import torch
from torch import Tensor

from .hypothesis import Hypothesis, finish
from .options import SearchOptions


class TooLong(ValueError):
    """A source longer than the model reads, where ``long_input`` is ``error``."""


def too_long(length: int, max_len: int) -> TooLong:
    """The error for a source of ``length`` tokens where the model reads ``max_len``."""
    return TooLong(
        f"a source has {length} tokens but the model reads at most max_len={max_len}; "
        "shorten it, split it into sentences, or decode with long_input='split'"
    )


def check_lengths(lengths: Tensor, max_len: int) -> None:
    """Raise a clear ``ValueError`` if any source length (``lengths``: b) exceeds ``max_len``."""
    longest = int(lengths.max()) if lengths.numel() else 0
    if longest > max_len:
        raise too_long(longest, max_len)


def count(length: int, size: int) -> int:
    """How many pieces of at most ``size`` ids a sequence of ``length`` ids needs (at least 1)."""
    return max(1, math.ceil(length / max(1, size)))


def cut(ids: Sequence[int], pieces: int) -> list[list[int]]:
    """``ids`` cut into ``pieces`` consecutive near-equal pieces (the first ones longer by one;
    some empty when there are fewer ids than pieces)."""
    size, extra = divmod(len(ids), pieces)
    starts = [i * size + min(i, extra) for i in range(pieces + 1)]
    return [list(ids[a:b]) for a, b in itertools.pairwise(starts)]


def fitting(ids: Sequence[int], size: int) -> list[list[int]]:
    """``ids`` in the fewest near-equal pieces of at most ``size`` ids."""
    return cut(ids, count(len(ids), size))


def tagged_pieces(ids: list[int], tag: int, max_len: int, split: bool) -> list[list[int]]:
    """A source's ``ids`` (its ``tag`` first ids, then text, then EOS) whole when they fit
    ``max_len``, else (``split``) cut into near-equal pieces that each fit with the tag and
    EOS, or ``TooLong``."""
    if len(ids) <= max_len:
        return [ids]
    if not split:
        raise too_long(len(ids), max_len)
    head, eos = ids[:tag], ids[-1]
    return [[*head, *p, eos] for p in fitting(ids[tag:-1], max_len - tag - 1)]


def fitting_pairs(
    source: Sequence[int], target: Sequence[int], source_size: int, target_size: int
) -> list[tuple[list[int], list[int]]]:
    """A pair cut at the same fractions of both sides into the fewest pieces that hold at most
    ``source_size`` source and ``target_size`` target ids: log P(target | source) of a pair too
    long for the model is scored as the sum over its pieces'."""
    pieces = max(count(len(source), source_size), count(len(target), target_size))
    return list(zip(cut(source, pieces), cut(target, pieces), strict=True))


def split_long_sources(
    src: Tensor, lengths: Tensor, max_len: int, pad_id: int
) -> tuple[Tensor, list[int]]:
    """Cut every source into near-equal pieces of at most ``max_len`` tokens.

    Returns the pieces (p x max_len, right-padded) and, for each piece, its source's index.
    """
    pieces: list[list[int]] = []
    owner: list[int] = []
    for i, (row, length) in enumerate(zip(src.tolist(), lengths.tolist(), strict=True)):
        for piece in fitting(row[:length], max_len):
            pieces.append(piece)
            owner.append(i)
    width = max(1, *map(len, pieces))
    rows = [ids + [pad_id] * (width - len(ids)) for ids in pieces]
    return torch.tensor(rows, dtype=src.dtype, device=src.device), owner


def join_pieces(
    results: list[list[Hypothesis]], owner: list[int], config: SearchOptions
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

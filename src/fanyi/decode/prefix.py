"""A target prefix: per source, the tokens its translation must start with (CTranslate2's
``translate_batch(target_prefix=...)``, fairseq's ``--prefix-size``).

The search is forced through the prefix: at step t < |prefix| every token of that row but the
prefix's t-th is −∞, for greedy decoding, sampling and every beam of a source alike. As in
CTranslate2, the prefix's log-probabilities count in the hypothesis's log P and score, so the
score is the model's log P(prefix, continuation, EOS | source) as if it were teacher-forced.
EOS is never part of a prefix; ``min_len`` and the length limit count the prefix's tokens (the
limit is raised to the prefix's length where it is shorter).

Prefixes travel as one tensor per batch, ``forced`` (b x p): row i holds source i's prefix,
filled with :data:`FREE` after its end (a row without a prefix is all ``FREE``).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

FREE = -1  # no token forced at this step of this row
# a forced token the repetition controls made impossible keeps a finite, hopeless score, so that
# the prefix is still followed (and a beam search still ends with a hypothesis)
HOPELESS = -1e30


def forced_tokens(
    prefixes: Sequence[Sequence[int]] | None, device: torch.device | str = "cpu"
) -> Tensor | None:
    """The ``forced`` tensor of ``prefixes`` (one per source, possibly empty), or None where
    no source has a prefix."""
    if not prefixes or not any(prefixes):
        return None
    if any(i < 0 for p in prefixes for i in p):
        raise ValueError("a target prefix holds a negative id")
    width = max(len(p) for p in prefixes)
    rows = [[*p, *[FREE] * (width - len(p))] for p in prefixes]
    return torch.tensor(rows, dtype=torch.long, device=device)


def check_prefixes(forced: Tensor | None, ids: tuple[int, int], max_len: int) -> None:
    """Refuse a prefix that holds EOS or padding (``ids``), or more tokens than the model's
    ``max_len`` leaves room for (host synchronisation, before the search)."""
    if forced is None:
        return
    eos_id, pad_id = ids
    if int(prefix_lengths(forced).max()) > max_len - 1:
        raise ValueError(f"a target prefix has more tokens than the model's {max_len - 1}")
    tokens = forced[forced != FREE]
    if bool(((tokens == eos_id) | (tokens == pad_id)).any()):
        raise ValueError("a target prefix may not hold EOS or padding: the search continues it")


def prefix_lengths(forced: Tensor) -> Tensor:
    """Tokens in each row's prefix: b."""
    return (forced != FREE).sum(dim=1)


def force_prefix(log_probs: Tensor, step: int, forced: Tensor | None) -> Tensor:
    """Keep only the prefix's token at ``step`` in each row that has one (``log_probs``: b x V,
    changed in place); its own log-probability stays, as in teacher forcing."""
    if forced is None or step >= forced.size(1):
        return log_probs
    token = forced[:, step, None]  # b x 1
    on, index = token != FREE, token.clamp(min=0)
    kept = log_probs.gather(1, index)  # b x 1
    vocab = torch.arange(log_probs.size(1), device=log_probs.device)
    log_probs.masked_fill_(on & (vocab != token), float("-inf"))
    log_probs.scatter_(1, index, torch.where(on, kept.clamp(min=HOPELESS), kept))
    return log_probs


def first_pieces(forced: Tensor | None, owner: list[int]) -> Tensor | None:
    """``forced`` for the pieces of long sources cut apart (``owner``: each piece's source):
    a source's prefix starts its first piece; the others are free."""
    if forced is None:
        return None
    rows = forced.new_full((len(owner), forced.size(1)), FREE)
    first = [i for i, source in enumerate(owner) if i == 0 or owner[i - 1] != source]
    rows[first] = forced[[owner[i] for i in first]]
    return rows

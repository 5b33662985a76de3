"""Repetition controls applied to each step's log-probabilities, in greedy decoding, sampling
and beam search alike (before ``constrain``, so the length limit and ``min_len`` still win).

- ``repetition_penalty`` p (Keskar et al., 2019, CTRL §4.1; transformers' and CTranslate2's
  option): the log-probability of every token already in the hypothesis is multiplied by p.
  Log-probabilities are ≤ 0, so p > 1 makes a repeat less likely (transformers' rule for a
  negative score). As transformers' beam search does, the changed value is what the hypothesis
  scores.
- ``no_repeat_ngram_size`` n: a token that would complete an n-gram the hypothesis already holds
  is forbidden (−∞), as fairseq, transformers and CTranslate2 do.
"""

from __future__ import annotations

import torch
from torch import Tensor

from .options import SearchOptions


def penalise_repeats(log_probs: Tensor, prefix: Tensor, config: SearchOptions) -> Tensor:
    """``log_probs`` (b x V) of the next token after ``prefix`` (b x t, BOS first, not counted),
    changed in place by both controls of ``config`` (1.0 and 0: off)."""
    repetition_penalty, no_repeat_ngram_size = (
        config.repetition_penalty,
        config.no_repeat_ngram_size,
    )
    tokens = prefix[:, 1:]  # b x t: what the hypothesis holds so far
    if repetition_penalty != 1.0 and tokens.size(1) > 0:
        seen = log_probs.gather(1, tokens)  # b x t
        log_probs.scatter_(1, tokens, seen * repetition_penalty)
    if no_repeat_ngram_size > 0:
        log_probs.masked_fill_(repeated_ngrams(tokens, no_repeat_ngram_size, log_probs), -torch.inf)
    return log_probs


def repeated_ngrams(tokens: Tensor, n: int, log_probs: Tensor) -> Tensor:
    """b x V: True for each token that would end an n-gram already in ``tokens`` (b x t)."""
    banned = torch.zeros_like(log_probs, dtype=torch.bool)
    if tokens.size(1) < n:  # no n-gram yet (shapes only: no host synchronisation)
        return banned
    grams = tokens.unfold(1, n, 1)  # b x m x n: every n-gram so far
    last = tokens[:, tokens.size(1) - (n - 1) :]  # b x (n-1): what the next token would follow
    match = (grams[:, :, :-1] == last[:, None, :]).all(-1)  # b x m
    hits = torch.zeros_like(log_probs).scatter_reduce(
        1, grams[:, :, -1], match.to(log_probs.dtype), reduce="amax"
    )
    return hits > 0

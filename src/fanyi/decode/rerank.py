"""Reranking a beam's hypotheses by how well each one translates back into its source.

A beam search ranks hypotheses y of a source x by log P(y | x) alone, which favours fluent
outputs that leave part of x out. A model that translates both ways also gives log P(x | y):
how much of x the hypothesis still carries. Each hypothesis is ranked by

    score(y) + λ · log P(x | y) / (|x| + 1)

(its beam score, and the backward log-probability per source token, EOS included), the
bidirectional reranking of Li et al. (2016, "A Diversity-Promoting Objective", MMI-bidi) and of
noisy-channel reranking (Yee et al., 2019). λ is chosen on dev (docs/quality.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import torch
from torch import Tensor

from ..data.batching import Batch, collate, token_batches, widened
from ..model import Model, Transformer
from .ensemble import mixture
from .hypothesis import Hypothesis, StepHook, no_pause
from .long_input import fitting_pairs

Scorer = Callable[[list[list[int]], list[list[int]]], list[float]]  # log_likelihoods of pairs


@torch.no_grad()
def log_likelihoods(
    model: Model,
    sources: Sequence[list[int]],
    targets: Sequence[list[int]],
    batch_tokens: int = 4096,
    between_batches: StepHook = no_pause,
) -> list[float]:
    """log P(target, EOS | source) of each pair, the whole target at once (teacher forcing).

    ``sources`` end in EOS; ``targets`` hold neither BOS nor EOS. ``between_batches`` runs before
    each batch of at most ``batch_tokens`` padded tokens (the server's turns and cancellation).
    An ensemble's is that of its mean distribution at each step, as it decodes."""
    c, models = model.config, model.members()
    device = next(model.parameters()).device
    lengths = [len(s) + len(t) + 1 for s, t in zip(sources, targets, strict=True)]
    found = [0.0] * len(sources)
    for rows in token_batches(
        sorted(range(len(sources)), key=lengths.__getitem__), lengths, batch_tokens
    ):
        between_batches()
        batch = collate([(sources[i][:-1], targets[i]) for i in rows], c.pad_id, c.bos_id, c.eos_id)
        batch = widened_pairs(batch, c.pad_id).to(device)
        per_token = mixture([gold_log_probs(m, batch) for m in models])
        per_token = per_token.masked_fill(batch.tgt_out == c.pad_id, 0)
        for i, value in zip(rows, per_token.sum(dim=1).tolist(), strict=True):
            found[i] = value
    return found


def widened_pairs(batch: Batch, pad_id: int) -> Batch:
    """``batch`` with its sources and targets padded to a multiple of ``WIDTH_STEP`` positions:
    a pair's score the same alone and in any batch."""
    src, tgt_in, tgt_out = (widened(t, pad_id) for t in (batch.src, batch.tgt_in, batch.tgt_out))
    return Batch(src, tgt_in, tgt_out, batch.ntokens)


def gold_log_probs(model: Transformer, batch: Batch) -> Tensor:
    """log P of each gold target token (b x t), teacher forced."""
    src_mask = model.source_mask(batch.src)
    hidden, _ = model.decode(batch.tgt_in, model.encode(batch.src, src_mask), src_mask)
    log_probs = model.generator.logits(hidden).float().log_softmax(dim=-1)
    return log_probs.gather(2, batch.tgt_out[:, :, None])[:, :, 0]


def backward_scores(
    found: list[list[Hypothesis]],
    sentences: list[list[int]],
    tags: list[list[int]],
    score: Scorer,
    max_len: int,
    eos_id: int,
) -> list[list[float]]:
    """log P(x | y) of each source sentence x (no tag, no EOS) given each of its hypotheses y,
    read as a source after ``tags`` (the tag of x's language). A pair too long for the model's
    ``max_len`` positions is cut at the same fractions of both sides into pieces that fit
    (``long_input.fitting_pairs``), and its pieces' log-probabilities add up."""
    owners: list[int] = []  # per pair: its hypothesis, all sources' hypotheses in a row
    back_sources: list[list[int]] = []
    back_targets: list[list[int]] = []
    hypotheses = (
        (h, x, tag) for hs, x, tag in zip(found, sentences, tags, strict=True) for h in hs
    )
    for owner, (h, sentence, tag) in enumerate(hypotheses):
        room = max_len - len(tag) - 1  # for the tag and EOS around y (and BOS before x)
        for y, x in fitting_pairs(h.tokens, sentence, room, max_len - 1):
            owners.append(owner)
            back_sources.append([*tag, *y, eos_id])
            back_targets.append(x)
    totals = [0.0] * sum(map(len, found))
    for owner, value in zip(owners, score(back_sources, back_targets), strict=True):
        totals[owner] += value
    ends = list(itertools.accumulate(map(len, found), initial=0))
    return [totals[a:b] for a, b in itertools.pairwise(ends)]


def rerank(
    hypotheses: list[list[Hypothesis]],
    backward: list[list[float]],
    source_lengths: Sequence[int],
    weight: float,
    n_best: int,
) -> list[list[Hypothesis]]:
    """Each source's hypotheses in the order of score + λ · backward / (|x| + 1), its
    ``n_best`` first (``backward``: log P(x | y) of each hypothesis; ``source_lengths``: |x|)."""
    ranked = []
    for hyps, back, length in zip(hypotheses, backward, source_lengths, strict=True):
        keys = [h.score + weight * b / (length + 1) for h, b in zip(hyps, back, strict=True)]
        order = sorted(range(len(hyps)), key=keys.__getitem__, reverse=True)
        ranked.append([hyps[i] for i in order[:n_best]])
    return ranked

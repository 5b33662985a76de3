"""Validation: the dev set's loss, and the BLEU and chrF of its greedy translations."""

from __future__ import annotations

import math
from typing import Any

import torch

from ..data import BOS_ID, EOS_ID, ParallelDataset, TokenBatchSampler, Vocab, collate
from ..decode import greedy_search
from ..model import Transformer
from ..scores import score
from .config import TrainConfig
from .loss import LabelSmoothingLoss


@torch.no_grad()
def dev_loss(
    model: Transformer, dev: ParallelDataset, cfg: TrainConfig, autocast: Any, device: torch.device
) -> dict[str, float]:
    """Per-token label-smoothed loss and NLL (and perplexity) of the dev set."""
    criterion = LabelSmoothingLoss(cfg.label_smoothing, model.config.pad_id)
    sampler = TokenBatchSampler(*dev.sizes(), cfg.valid_max_tokens, shuffle=False)
    total, tokens = torch.zeros(2, dtype=torch.float64, device=device), 0  # summed on the device
    for indices in sampler:
        batch = collate([dev[i] for i in indices]).to(device)
        with autocast:
            log_probs = model(batch.src, batch.tgt_in)
        total += torch.stack(criterion(log_probs, batch.tgt_out)).double()
        tokens += batch.ntokens
    loss, nll = (total / tokens).tolist()
    return {"dev_loss": loss, "dev_nll": nll, "dev_ppl": math.exp(min(nll, 50.0))}


@torch.no_grad()
def dev_translations(
    model: Transformer, dev: ParallelDataset, cfg: TrainConfig, autocast: Any, device: torch.device
) -> list[list[int]]:
    """Greedy decodings of the first ``valid_bleu_sentences`` dev sources, in order."""
    count = min(len(dev), cfg.valid_bleu_sentences or len(dev))
    subset = ParallelDataset(dev.src[:count], dev.tgt[:count])
    sampler = TokenBatchSampler(*subset.sizes(), cfg.valid_max_tokens, shuffle=False)
    hypotheses: list[list[int]] = [[] for _ in range(count)]
    for indices in sampler:
        src = collate([subset[i] for i in indices]).src.to(device)
        max_len = min(model.config.max_len - 1, 2 * src.size(1) + 10)
        with autocast:
            decoded = greedy_search(model, src, BOS_ID, EOS_ID, max_len)
        for i, ids in zip(indices, decoded, strict=True):
            hypotheses[i] = ids
    return hypotheses


def validate(
    model: Transformer,
    dev: ParallelDataset,
    references: list[str],
    tgt_vocab: Vocab,
    tgt_lang: str,
    cfg: TrainConfig,
    autocast: Any,
    device: torch.device,
) -> dict[str, float]:
    """Dev loss, and BLEU/chrF of greedy decoding (``fanyi.scores.score``) when asked."""
    model.eval()
    metrics = dev_loss(model, dev, cfg, autocast, device)
    if cfg.valid_bleu:
        hypotheses = [
            tgt_vocab.decode(ids) for ids in dev_translations(model, dev, cfg, autocast, device)
        ]
        scores = score(hypotheses, [references[: len(hypotheses)]], tgt_lang)
        metrics |= {"bleu": scores.bleu, "chrf": scores.chrf}
    model.train()
    return metrics

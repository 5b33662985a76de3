"""Validation: the dev set's loss, and the BLEU and chrF of its greedy translations."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import torch

from ..data import ParallelDataset, TokenBatchSampler, Vocab, collate, load_split
from ..data.manifest import split_file
from ..decode import SearchOptions, decode
from ..scores import score
from .config import TrainConfig
from .context import TrainContext


@dataclass
class DevSet:
    """The dev split: its ids, its reference translations, and the target side's vocabulary."""

    data: ParallelDataset
    references: list[str]
    vocab: Vocab  # the target side's
    lang: str  # the target language (which BLEU tokenizer)

    @classmethod
    def load(cls, data_dir: Path, vocabs: tuple[Vocab, Vocab], lang: str) -> DevSet:
        references = (data_dir / split_file("dev", "tgt")).read_text(encoding="utf-8")
        return cls(load_split(data_dir, "dev", vocabs), references.splitlines(), vocabs[1], lang)


def greedy() -> SearchOptions:
    """Validation's search: greedy, within the decoder's own length limits (SearchOptions')."""
    return SearchOptions(beam=1, length_penalty=0.0)


@torch.no_grad()
def dev_loss(ctx: TrainContext, dev: ParallelDataset, max_tokens: int) -> dict[str, float]:
    """Per-token label-smoothed loss and NLL (and perplexity) of the dev set."""
    sampler = TokenBatchSampler(*dev.sizes(), max_tokens, shuffle=False)
    total = torch.zeros(2, dtype=torch.float64, device=ctx.device)  # summed on the device
    tokens = 0
    for indices in sampler:
        batch = collate([dev[i] for i in indices]).to(ctx.device)
        with ctx.autocast:
            log_probs = ctx.model(batch.src, batch.tgt_in)
        total += torch.stack(ctx.criterion(log_probs, batch.tgt_out)).double()
        tokens += batch.ntokens
    loss, nll = (total / tokens).tolist()
    return {"dev_loss": loss, "dev_nll": nll, "dev_ppl": math.exp(min(nll, 50.0))}


@torch.no_grad()
def dev_translations(
    ctx: TrainContext, dev: ParallelDataset, count: int | None, max_tokens: int
) -> list[list[int]]:
    """Greedy decodings of the first ``count`` (default: all) dev sources, in order."""
    count = min(len(dev), count or len(dev))
    subset = ParallelDataset(dev.src[:count], dev.tgt[:count])
    sampler = TokenBatchSampler(*subset.sizes(), max_tokens, shuffle=False)
    hypotheses: list[list[int]] = [[] for _ in range(count)]
    config = greedy()
    for indices in sampler:
        src = collate([subset[i] for i in indices]).src.to(ctx.device)
        with ctx.autocast:
            decoded = decode(ctx.model, src, config)
        for i, best in zip(indices, decoded, strict=True):
            hypotheses[i] = best[0].tokens
    return hypotheses


def validate(ctx: TrainContext, dev: DevSet, cfg: TrainConfig) -> dict[str, float]:
    """Dev loss, and BLEU/chrF of greedy decoding (``fanyi.scores.score``) when asked."""
    ctx.model.eval()
    metrics = dev_loss(ctx, dev.data, cfg.valid_max_tokens)
    if cfg.valid_bleu:
        decoded = dev_translations(ctx, dev.data, cfg.valid_bleu_sentences, cfg.valid_max_tokens)
        hypotheses = [dev.vocab.decode(ids) for ids in decoded]
        scores = score(hypotheses, [dev.references[: len(hypotheses)]], dev.lang)
        metrics |= {"bleu": scores.bleu, "chrf": scores.chrf}
    ctx.model.train()
    return metrics

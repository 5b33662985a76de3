"""transformers' ``generate`` under fanyi's rules, as the reference for MarianMT parity tests:
at most a·|src| + b tokens (a = 1.5, b = 10), then EOS keeping its own log-probability (HF's
``forced_eos_token_id`` would give it probability 1), padding never generated, and beams ranked
by log-probability (length_penalty 0), done with k finished hypotheses (early_stopping)."""

from __future__ import annotations

import itertools

import torch
from transformers import LogitsProcessor, LogitsProcessorList


class EosAtLimit(LogitsProcessor):
    """fanyi's limit for ``generate``: at ``length`` only EOS, keeping its log-probability."""

    def __init__(self, eos_id: int, length: int) -> None:
        self.eos_id, self.length = eos_id, length

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        if input_ids.size(1) == self.length:
            eos = scores[:, self.eos_id].clone()
            scores.fill_(float("-inf"))
            scores[:, self.eos_id] = eos
        return scores


def generate(reference, sources: list[list[int]], beam: int) -> list[list[list[int]]]:
    """transformers' n-best ids (no start, EOS or padding) per source, grouped by source length
    so that a batch shares one length limit and has no padding."""
    pad, eos = reference.config.pad_token_id, reference.config.eos_token_id
    results: list[list[list[int]]] = [[] for _ in sources]
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    for n, members in itertools.groupby(order, key=lambda i: len(sources[i])):
        group, limit = list(members), int(n * 1.5 + 10)
        search = {"length_penalty": 0.0, "early_stopping": True} if beam > 1 else {}
        out = reference.generate(
            input_ids=torch.tensor([sources[i] for i in group]),
            do_sample=False,
            num_beams=beam,  # over the model's generation_config.json (an export holds its beam)
            max_length=limit + 2,
            num_return_sequences=beam,
            bad_words_ids=[[pad]],
            forced_eos_token_id=None,
            logits_processor=LogitsProcessorList([EosAtLimit(eos, limit + 1)]),
            **search,
        ).tolist()
        for j, i in enumerate(group):
            for row in out[j * beam : (j + 1) * beam]:
                results[i].append([t for t in row[1:] if t not in (pad, eos)])
    return results

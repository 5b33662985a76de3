"""An ensemble: several models translating as one, by the mean of their predictions.

At each step every member reads the same prefix and predicts the next token; the ensemble's
distribution is the mean of theirs, p(y_t) = (1/M) Σ_m p_m(y_t | y_<t, x), the combination of
the ensembles that the paper's Table 2 compares against (Sutskever et al. 2014, §3.6; Wu et al.
2016) and of fairseq's and Marian's. It decodes with any search, as one model would: its
"hidden state" is its members' side by side, and its generator turns them into log (1/M) Σ_m p_m,
which is already normalised, so the search's log-softmax leaves it unchanged. Members must share
vocabularies and special ids; they may differ in anything else (depth, width, pre- or post-norm).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from pathlib import Path
from typing import cast

import torch
from torch import Tensor, nn

from ..ensemble_dir import ensemble_members, read_ensemble
from ..model import DecoderState, Model, Transformer
from ..model.transformer import Generator
from ..model_dir import load_model
from ..sections import Checkpoint


class EnsembleState:
    """Each member's incremental decoder state, kept in step with the others."""

    def __init__(self, states: list[DecoderState]) -> None:
        self.states = states

    def select(self, index: Tensor) -> None:
        """Keep target rows ``index`` in every member (``DecoderState.select``)."""
        for state in self.states:
            state.select(index)

    def reorder(self, index: Tensor) -> None:
        """Reorder rows among each source's beams in every member (``DecoderState.reorder``)."""
        for state in self.states:
            state.reorder(index)


class MixtureGenerator(nn.Module):
    """Members' decoder outputs, side by side → log of the mean of their distributions."""

    def __init__(self, generators: list[nn.Module], widths: list[int]) -> None:
        super().__init__()
        self.generators = nn.ModuleList(generators)
        self.widths = widths  # each member's d_model

    def logits(self, hidden: Tensor) -> Tensor:  # ... x Σ d_model → ... x V (normalised)
        parts = hidden.split(self.widths, dim=-1)
        log_probs = [
            g.logits(part).float().log_softmax(dim=-1)
            for g, part in zip(cast(list[Generator], self.generators), parts, strict=True)
        ]
        return mixture(log_probs)


def mixture(log_probs: list[Tensor]) -> Tensor:
    """log (1/M) Σ_m p_m of M members' log-probabilities (same shapes), pairwise: logaddexp is
    one fused pass, 4x faster than logsumexp over a stack of them."""
    return functools.reduce(torch.logaddexp, log_probs) - math.log(len(log_probs))


class Ensemble(nn.Module):
    """M trained models decoding together, a ``model.decoding.Model`` as one ``Transformer`` is."""

    def __init__(self, members: list[Transformer]) -> None:
        super().__init__()
        if len(members) < 2:
            raise ValueError("an ensemble needs at least two models")
        first = members[0].config
        shared = ("src_vocab_size", "tgt_vocab_size", "pad_id", "bos_id", "eos_id")
        for m in members[1:]:
            differ = [k for k in shared if getattr(m.config, k) != getattr(first, k)]
            if differ:
                raise ValueError(f"ensemble members differ in {', '.join(differ)}")
        self.stack = nn.ModuleList(members)
        # positions: as far as every member reads
        self.config = dataclasses.replace(first, max_len=min(m.config.max_len for m in members))
        self.generator = MixtureGenerator(
            [m.generator for m in members], [m.config.d_model for m in members]
        )

    def members(self) -> list[Transformer]:
        """The models it combines."""
        return list(self.stack)  # type: ignore[arg-type]

    def start_decoding(self, src: Tensor, beams: int = 1) -> EnsembleState:
        """Every member encodes ``src`` (``Transformer.start_decoding``)."""
        return EnsembleState([m.start_decoding(src, beams) for m in self.members()])

    def decode_step(
        self, tokens: Tensor, state: EnsembleState, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor]]:
        """Feed the next target ids to every member: their outputs side by side (b x n x Σ d)
        and, if asked, one attention map: the members' last layers averaged over heads and
        members (b x 1 x n x s)."""
        outputs = [
            m.decode_step(tokens, s, need_weights)
            for m, s in zip(self.members(), state.states, strict=True)
        ]
        hidden = torch.cat([h for h, _ in outputs], dim=-1)
        if not need_weights:
            return hidden, []
        maps = [weights[-1].float().mean(dim=1) for _, weights in outputs]
        return hidden, [torch.stack(maps).mean(dim=0)[:, None]]

    def map(self, convert: Callable[[Transformer], Transformer]) -> Ensemble:
        """An ensemble of ``convert(member)`` for each member (a dtype copy, int8)."""
        return Ensemble([convert(m) for m in self.members()])


def load(path: Path, device: str | torch.device = "cpu") -> tuple[Model, Checkpoint]:
    """The model (or ensemble) of model (or ensemble) directory ``path``, in eval mode, and the
    config the translator reads text by (``ensemble_dir.read_ensemble``)."""
    if ensemble_members(path) is None:
        return load_model(path, device=device)
    checkpoints, checkpoint = read_ensemble(path)
    return Ensemble([load_model(c.path, device=device)[0] for c in checkpoints]), checkpoint

"""Pieces shared by every search: the hypothesis record, length limits and penalty, step scores,
and the hook a caller runs between steps."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import Tensor

from ..data.vocab import BOS_ID, EOS_ID
from ..model import Model
from ..model.decoding import StateT
from .allowed import AllowedOutput, allowed_output, log_probs_over
from .options import SearchOptions
from .prefix import force_prefix, prefix_lengths
from .run_tables import RunTables


@dataclass
class Hypothesis:
    """One finished translation of one source."""

    tokens: list[int]  # generated ids, without BOS and EOS
    score: float  # log_prob / lp(len(tokens) + 1): the rank used by beam search
    log_prob: float  # log P(tokens, EOS | source)
    attention: Tensor | None = None  # (len(tokens) + 1) x |source|: last layer, mean over heads


NO_TRANSLATION = (
    "the search options leave no translation: min_len, suppress_ids, no_repeat_ngram_size, "
    "max_repeat_run or the target prefix rule out every continuation"
)

# Called by every search before each decoding step: it may wait (the server lets another batch
# take a turn) or raise Cancelled (the request timed out or its client went away).
StepHook = Callable[[], None]


class Cancelled(Exception):
    """A search stopped between two steps by its caller's step hook."""


def no_pause() -> None:
    """The default step hook: go straight on."""


@dataclass(frozen=True)
class SearchTask:
    """What one search is given: a batch of right-padded source ids, how to search them, the
    special ids, the hook run before every step, and each source's target prefix."""

    src: Tensor  # b x s
    options: SearchOptions
    bos_id: int = BOS_ID
    eos_id: int = EOS_ID
    between_steps: StepHook = no_pause
    forced: Tensor | None = None  # b x p: each source's target prefix (``prefix.py``)
    runs: RunTables | None = None  # the vocabularies' runs, for ``max_repeat_run``

    def part(self, src: Tensor, forced: Tensor | None) -> SearchTask:
        """The same search of other sources (``src``) with their target prefixes."""
        return dataclasses.replace(self, src=src, forced=forced)


Search = Callable[[Model, SearchTask], list[list[Hypothesis]]]  # per source, its n-best


def possible(found: list[list[Hypothesis]]) -> list[list[Hypothesis]]:
    """``found`` without the hypotheses the options made impossible (log P −∞, or not a number);
    a ValueError where a source is left with none, rather than a translation the options
    forbid or an empty n-best list."""
    kept = [[h for h in hypotheses if math.isfinite(h.log_prob)] for hypotheses in found]
    if not all(kept):
        raise ValueError(NO_TRANSLATION)
    return kept


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^α (Wu et al., 2016, eq. 14)."""
    return ((5.0 + length) / 6.0) ** alpha


def finish(
    tokens: list[int], log_prob: float, alpha: float, attention: Tensor | None = None
) -> Hypothesis:
    """A hypothesis ending in EOS; ``tokens`` excludes BOS and EOS."""
    score = log_prob / length_penalty(len(tokens) + 1, alpha)
    return Hypothesis(tokens, score, log_prob, attention)


def source_lengths(model: Model, src: Tensor) -> Tensor:
    """Non-padding tokens per source: b."""
    return (src != model.config.pad_id).sum(dim=1)


def target_limits(
    model: Model, src: Tensor, config: SearchOptions, forced: Tensor | None = None
) -> Tensor:
    """Most tokens (before EOS) each source may produce: a·|src| + b, within the model's
    positions, and at least its target prefix (``forced``, see ``prefix.py``)."""
    limits = (source_lengths(model, src) * config.max_len_a + config.max_len_b).long()
    if forced is not None:
        limits = torch.maximum(limits, prefix_lengths(forced))
    return limits.clamp(min=1, max=model.config.max_len - 1)


def step_log_probs(
    model: Model[StateT],
    tokens: Tensor,
    state: StateT,
    need_attention: bool,
    bias: Bias | None = None,
) -> tuple[Tensor, Tensor | None]:
    """Feed the newest tokens (b x 1); log-probabilities of the next one (b x V, float32 or wider;
    padding never, and the ``bias`` of the suppressed and penalised ids added, or with
    ``allowed_softmax`` normalised over the allowed ids only) and, if asked, the last layer's
    cross-attention averaged over heads (b x s)."""
    hidden, weights = model.decode_step(tokens, state, need_attention)
    attention = weights[-1].float().mean(dim=1)[:, -1] if need_attention else None
    if bias is not None and bias.allowed is not None:
        log_probs = log_probs_over(bias.allowed, hidden[:, -1])
    else:
        logits = model.generator.logits(hidden[:, -1])  # b x V
        if logits.dtype not in (torch.float32, torch.float64):
            logits = logits.float()  # bf16 scores would tie and drift over a long beam
        if bias is not None and bias.before is not None:
            logits = logits + bias.before
        log_probs = logits.log_softmax(dim=-1)
        log_probs[:, model.config.pad_id] = float("-inf")  # padding is never in a translation
    if bias is not None and bias.row is not None:  # after the softmax: a path the model
        log_probs += bias.row.to(log_probs.dtype)  # wanted them on pays for it
    return log_probs, attention


class Bias(NamedTuple):
    """What the target ids add to their log-probability at every step, a V-wide row: −∞ for a
    suppressed id, −β for a penalised one (an id in both stays suppressed), 0 for the rest; with
    ``allowed_softmax`` the output layer onto the ids not suppressed (``allowed.py``) instead
    of the −∞, and the row (None without a β) holds the −β only."""

    row: Tensor | None
    allowed: AllowedOutput | None = None
    before: Tensor | None = None  # b x V, added to the logits before the softmax: −∞ off each
    # row's allowed pieces (``allowed_softmax`` for several sources stepped together)


def piece_bias(
    model: Model, config: SearchOptions, src: Tensor, forced: Tensor | None
) -> Bias | None:
    """``config.suppress_ids`` (−∞) and, with a ``script_penalty`` β, ``config.penalized_ids``
    (−β) on the device of ``src``, less the ids of the target prefixes (``forced``: a user's own
    text is never refused nor penalised); None for none. One upload per search."""
    penalized = config.penalized_ids if config.script_penalty > 0 else []
    if not config.suppress_ids and not penalized:
        return None
    ids = torch.tensor([*config.suppress_ids, *penalized], dtype=torch.long, device=src.device)
    added = [float("-inf")] * len(config.suppress_ids) + [-config.script_penalty] * len(penalized)
    values = torch.tensor(added, dtype=torch.float32, device=src.device)
    if forced is not None:
        kept = ~torch.isin(ids, forced)
        ids, values = ids[kept], values[kept]
    vocab_size = model.config.tgt_vocab_size
    row = torch.zeros(vocab_size, device=src.device).index_add_(0, ids, values)
    suppressed = row == float("-inf")
    if not config.allowed_softmax or not suppressed.any():
        return Bias(row)
    refused = torch.cat([suppressed.nonzero()[:, 0], ids.new_tensor([model.config.pad_id])])
    allowed = allowed_output(model.generator, refused, vocab_size)
    return Bias(row.masked_fill(suppressed, 0.0) if penalized else None, allowed)


def constrain(
    log_probs: Tensor,
    step: int,
    limits: Tensor,
    min_len: int,
    eos_id: int,
    forced: Tensor | None = None,
    first_limit: int = 0,
) -> Tensor:
    """Forbid EOS before ``min_len`` tokens; once a row has ``limits`` tokens allow only EOS
    (keeping its own log-probability: the limit comes before ``min_len``); within a row's target
    prefix (``forced``) allow only the prefix's token. ``log_probs``: b x V, changed in place.
    No limit is below ``first_limit`` (known on the host): until then the limit costs nothing."""
    force_prefix(log_probs, step, forced)
    at_limit = limits <= step  # b
    if step < min_len:
        log_probs[:, eos_id].masked_fill_(~at_limit, float("-inf"))
    if step >= first_limit:  # masked whether or not a row is at its limit: no host sync
        eos = log_probs[:, eos_id].clone()
        log_probs.masked_fill_(at_limit[:, None], float("-inf"))
        log_probs[:, eos_id] = eos
    return log_probs

"""Batched beam search with GNMT length penalty, n-best lists, and a batch that shrinks.

Each step every live beam proposes its continuations; per source the 2k best (k = beam size)
are ranked. EOS candidates among the first k are set aside as finished hypotheses; the k best
others continue. A source is done once it has k finished hypotheses or reaches its length
limit (where only EOS is allowed); its rows then leave the batch. Sources never interact, so
results do not depend on how sources are batched, and beam 1 is greedy decoding.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import torch
from torch import Tensor

from ..data.vocab import BOS_ID, EOS_ID
from ..model import Model, State
from ..model.decoding import StateT
from .hypothesis import (
    Hypothesis,
    StepHook,
    constrain,
    finish,
    length_penalty,
    no_pause,
    source_lengths,
    step_log_probs,
    target_limits,
)
from .options import SearchOptions
from .repetition import penalise_repeats
from .top_k import top_k


@dataclass
class _Beams:
    """The live sources of a beam search: n sources x k beams, rows ordered source-major."""

    source: Tensor  # n: index of each live source in the input batch
    scores: Tensor  # n x k: log P of each beam's prefix (-inf for an unused beam)
    prefix: Tensor  # n·k x t: tokens fed so far, BOS first
    limits: Tensor  # n: most tokens before EOS
    attention: Tensor | None  # n·k x t x s, when asked for
    forced: Tensor | None = None  # n·k x p: each row's target prefix (``prefix.py``)


@dataclass
class _Candidates:
    """The 2k best one-token extensions of each source's beams (sorted, best first)."""

    scores: Tensor  # n x 2k: log P of the extended prefix
    row: Tensor  # n x 2k: the batch row (n·k rows) each one extends
    token: Tensor  # n x 2k


def start_beams(
    model: Model[StateT],
    src: Tensor,
    config: SearchOptions,
    bos_id: int,
    forced: Tensor | None = None,
) -> tuple[_Beams, StateT]:
    """k target rows per source (its beams), all through its target prefix (``forced``: n x p);
    only the first beam is live at step 0."""
    n, k = src.size(0), config.beam
    state = model.start_decoding(src, beams=k)
    scores = torch.full((n, k), float("-inf"), device=src.device)
    scores[:, 0] = 0.0
    prefix = src.new_full((n * k, 1), bos_id)
    limits = target_limits(model, src, config, forced)
    rows = None if forced is None else forced.repeat_interleave(k, dim=0)
    return _Beams(torch.arange(n, device=src.device), scores, prefix, limits, None, rows), state


def expand(beams: _Beams, log_probs: Tensor) -> _Candidates:
    """The 2k best extensions per source of all its beams (log_probs: n·k x V)."""
    n, k = beams.scores.shape
    m = min(2 * k, log_probs.size(-1))  # the 2k best of a source are among its beams' 2k best
    best, token = top_k(log_probs, m)  # n·k x m
    total = (beams.scores.view(n * k, 1) + best).view(n, k * m)
    scores, flat = total.topk(min(2 * k, k * m), dim=1)  # n x 2k
    row = (
        torch.div(flat, m, rounding_mode="floor") + torch.arange(n, device=flat.device)[:, None] * k
    )
    return _Candidates(scores, row, token.view(n, k * m).gather(1, flat))


def set_aside(
    beams: _Beams,
    cand: _Candidates,
    attention: Tensor | None,
    finished: list[list[Hypothesis]],
    config: SearchOptions,
    lengths: list[int],
    eos_id: int,
) -> None:
    """Move EOS candidates ranked within the first k of their source to ``finished``."""
    k = beams.scores.size(1)
    ends = (cand.token[:, :k] == eos_id) & cand.scores[:, :k].isfinite()  # n x k
    for i, j in ends.nonzero().tolist():
        source, row = int(beams.source[i]), int(cand.row[i, j])
        att = None
        if attention is not None:
            att = with_step(
                beams.attention, torch.tensor([row], device=attention.device), attention
            )[0, :, : lengths[source]]
        ids = beams.prefix[row, 1:].tolist()
        finished[source].append(finish(ids, float(cand.scores[i, j]), config.length_penalty, att))


def advance(beams: _Beams, cand: _Candidates, attention: Tensor | None, eos_id: int) -> Tensor:
    """Continue each source's k best non-EOS candidates; returns the rows they extend (n x k)."""
    k = beams.scores.size(1)
    scores = cand.scores.masked_fill(cand.token == eos_id, float("-inf"))
    beams.scores, best = scores.topk(k, dim=1)  # n x k
    rows, tokens = cand.row.gather(1, best), cand.token.gather(1, best)
    beams.prefix = torch.cat([beams.prefix[rows.flatten()], tokens.view(-1, 1)], dim=1)
    if attention is not None:
        beams.attention = with_step(beams.attention, rows.flatten(), attention)
    return rows


def with_step(past: Tensor | None, rows: Tensor, attention: Tensor) -> Tensor:
    """Attention histories of ``rows`` followed by this step's: len(rows) x (t+1) x s."""
    step = attention[rows, None]
    return step if past is None else torch.cat([past[rows], step], dim=1)


def drop_done(beams: _Beams, state: State, rows: Tensor, done: Tensor) -> None:
    """Reorder the decoder state to the new beams (rows: n x k) and drop the ``done`` sources."""
    if not bool(done.any()):
        state.reorder(rows.flatten())  # beams move only within their source
        return
    keep = (~done).nonzero()[:, 0]
    state.select(rows[keep].flatten())
    k = rows.size(1)
    keep_rows = (keep[:, None] * k + torch.arange(k, device=keep.device)).flatten()
    beams.source, beams.scores, beams.limits = (
        beams.source[keep],
        beams.scores[keep],
        beams.limits[keep],
    )
    beams.prefix = beams.prefix[keep_rows]
    if beams.forced is not None:
        beams.forced = beams.forced[keep_rows]
    if beams.attention is not None:
        beams.attention = beams.attention[keep_rows]


def done_sources(
    beams: _Beams, finished: list[list[Hypothesis]], config: SearchOptions, step: int
) -> Tensor:
    """Which live sources (n) are done: at their length limit, with k finished hypotheses, or
    with n-best ones that no live beam can still beat.

    The bound: a live beam's log-probability only falls as it grows, and with α ≥ 0 the
    penalty lp grows with length, so no descendant scores above log P / lp(limit + 1).
    """
    done = (beams.limits <= step).tolist()
    best_live = beams.scores.max(dim=1).values.tolist()
    for i, source in enumerate(beams.source.tolist()):
        hyps = finished[source]
        if len(hyps) >= config.beam:
            done[i] = True
        elif len(hyps) >= config.n_best and config.length_penalty >= 0:
            nth = sorted((h.score for h in hyps), reverse=True)[config.n_best - 1]
            longest = int(beams.limits[i]) + 1
            done[i] = done[i] or best_live[i] / length_penalty(longest, config.length_penalty) < nth
    return torch.tensor(done, device=beams.scores.device)


def best_first(finished: list[Hypothesis], n_best: int) -> list[Hypothesis]:
    """The ``n_best`` highest-scoring hypotheses, best first."""
    return sorted(finished, key=lambda h: h.score, reverse=True)[:n_best]


@torch.inference_mode()
def beam_search(
    model: Model,
    src: Tensor,
    config: SearchOptions,
    bos_id: int = BOS_ID,
    eos_id: int = EOS_ID,
    between_steps: StepHook = no_pause,
    forced: Tensor | None = None,
) -> list[list[Hypothesis]]:
    """Beam search of width ``config.beam`` for each source (b x s), every beam through the
    source's target prefix (``forced``: b x p); per source its n-best."""
    beams, state = start_beams(model, src, config, bos_id, forced)
    lengths = source_lengths(model, src).tolist()
    finished: list[list[Hypothesis]] = [[] for _ in range(src.size(0))]
    for step in itertools.count():
        between_steps()
        log_probs, attention = step_log_probs(model, beams.prefix[:, -1:], state, config.attention)
        penalise_repeats(log_probs, beams.prefix, config)
        limits = beams.limits.repeat_interleave(config.beam)
        constrain(log_probs, step, limits, config.min_len, eos_id, beams.forced)
        cand = expand(beams, log_probs)
        set_aside(beams, cand, attention, finished, config, lengths, eos_id)
        rows = advance(beams, cand, attention, eos_id)
        done = done_sources(beams, finished, config, step)
        if bool(done.all()):
            break
        drop_done(beams, state, rows, done)
    return [best_first(hyps, config.n_best) for hyps in finished]

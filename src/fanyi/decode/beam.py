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

from ..model import Model, State
from ..model.decoding import StateT
from .checks import horizon
from .finished import Finished
from .hypothesis import (
    Hypothesis,
    SearchTask,
    constrain,
    piece_bias,
    source_lengths,
    step_log_probs,
    target_limits,
)
from .repetition import RunGuard, penalise_repeats
from .top_k import top_k


@dataclass
class _Beams:
    """The live sources of a beam search: n sources x k beams, rows ordered source-major."""

    source: Tensor  # n: index of each live source in the input batch
    scores: Tensor  # n x k: log P of each beam's prefix (-inf for an unused beam)
    prefix: Tensor  # n·k x t: tokens fed so far, BOS first
    limits: Tensor  # n: most tokens before EOS
    attention: Tensor | None  # n·k x t x s, when asked for
    forced: Tensor | None  # n·k x p: each row's target prefix (``prefix.py``)
    done: Tensor  # n: sources done, waiting for the next check to leave the batch


@dataclass
class _Candidates:
    """The 2k best one-token extensions of each source's beams (sorted, best first)."""

    scores: Tensor  # n x 2k: log P of the extended prefix
    row: Tensor  # n x 2k: the batch row (n·k rows) each one extends
    token: Tensor  # n x 2k


def start_beams(model: Model[StateT], task: SearchTask, limits: Tensor) -> tuple[_Beams, StateT]:
    """k target rows per source of ``task`` (its beams), all through its target prefix; only the
    first beam is live at step 0 (``limits``: n, most tokens before EOS)."""
    src, k = task.src, task.options.beam
    n = src.size(0)
    state = model.start_decoding(src, beams=k)
    scores = torch.full((n, k), float("-inf"), device=src.device)
    scores[:, 0] = 0.0
    prefix = src.new_full((n * k, 1), task.bos_id)
    rows = None if task.forced is None else task.forced.repeat_interleave(k, dim=0)
    source, done = torch.arange(n, device=src.device), src.new_zeros(n, dtype=torch.bool)
    return _Beams(source, scores, prefix, limits, None, rows, done), state


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
    beams: _Beams, cand: _Candidates, attention: Tensor | None, finished: Finished, step: int
) -> None:
    """Hand the first k candidates of each source to ``finished``, which keeps those that end."""
    k = beams.scores.size(1)
    first = (cand.scores[:, :k], cand.row[:, :k], cand.token[:, :k])
    history = None
    if attention is not None:
        history = with_step(beams.attention, first[1].flatten(), attention)
    finished.add(beams, first, step, history)


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


def drop_done(beams: _Beams, state: State, rows: Tensor) -> bool:
    """Reorder the decoder state to the new beams (rows: n x k) and drop the sources that are
    done (one host sync); whether any source is left."""
    keep = (~beams.done).nonzero()[:, 0]
    if keep.numel() in (0, beams.done.numel()):
        state.reorder(rows.flatten())
        return keep.numel() > 0
    state.select(rows[keep].flatten())
    k = rows.size(1)
    keep_rows = (keep[:, None] * k + torch.arange(k, device=keep.device)).flatten()
    beams.source, beams.scores, beams.limits, beams.done = (
        beams.source[keep],
        beams.scores[keep],
        beams.limits[keep],
        beams.done[keep],
    )
    beams.prefix = beams.prefix[keep_rows]
    if beams.forced is not None:
        beams.forced = beams.forced[keep_rows]
    if beams.attention is not None:
        beams.attention = beams.attention[keep_rows]
    return True


@torch.inference_mode()
def beam_search(model: Model, task: SearchTask) -> list[list[Hypothesis]]:
    """Beam search of width ``options.beam`` for each source of ``task``, every beam through
    the source's target prefix; per source its n-best. Done sources stay in the batch until the
    next check (``checks.py``)."""
    src, config, eos_id = task.src, task.options, task.eos_id
    limits = target_limits(model, src, config, task.forced)
    seen = horizon(source_lengths(model, src), limits)
    bias = piece_bias(model, config, src, task.forced)
    beams, state = start_beams(model, task, limits)
    finished = Finished.start(src, config, seen, (eos_id, model.config.pad_id))
    runs = RunGuard.start(task.runs, src, config.max_repeat_run)
    for step in itertools.count():
        task.between_steps()
        tokens = beams.prefix[:, -1:]
        log_probs, attention = step_log_probs(model, tokens, state, config.attention, bias)
        penalise_repeats(log_probs, beams.prefix, config, runs, beams.source)
        limits = beams.limits.repeat_interleave(config.beam)
        constrain(log_probs, step, limits, config.min_len, eos_id, beams.forced, seen.first_limit)
        cand = expand(beams, log_probs)
        set_aside(beams, cand, attention, finished, step)
        rows = advance(beams, cand, attention, eos_id)
        beams.done = finished.done(beams, config, step)
        if not seen.is_check(step):
            state.reorder(rows.flatten())  # beams move only within their source
        elif not drop_done(beams, state, rows):
            break
    return finished.hypotheses(config.n_best, seen.lengths)

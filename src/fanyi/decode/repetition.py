"""Repetition controls applied to each step's log-probabilities, in greedy decoding, sampling
and beam search alike (before ``constrain``, so the length limit and ``min_len`` still win).

- ``repetition_penalty`` p (Keskar et al., 2019, CTRL §4.1; transformers' and CTranslate2's
  option): the log-probability of every token already in the hypothesis is multiplied by p.
  Log-probabilities are ≤ 0, so p > 1 makes a repeat less likely (transformers' rule for a
  negative score). As transformers' beam search does, the changed value is what the hypothesis
  scores.
- ``no_repeat_ngram_size`` n: a token that would complete an n-gram the hypothesis already holds
  is forbidden (−∞), as fairseq, transformers and CTranslate2 do.
- ``max_repeat_run`` n: a piece that would make a run of n of one character ("Professssor"), or
  the n-th repeat in a row of a unit of up to :data:`MAX_PERIOD` pieces ("▁de lib er ate ly" four
  times), is forbidden (−∞), unless the source holds that run too (``text/runs.py`` says what a
  run is; digits never run). It reads the pieces' characters from ``run_tables.py``; a search
  given no tables (ids without a vocabulary) runs without it.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from .options import SearchOptions
from .run_tables import NONE, PieceRuns, RunTables

NEVER = -2  # an id no piece has: a source window that holds no run
# The longest unit of pieces whose runs are forbidden: a word of up to 8 pieces
# ("▁de lib er ate ly" is 5) or a short phrase
MAX_PERIOD = 8


def penalise_repeats(
    log_probs: Tensor,
    prefix: Tensor,
    config: SearchOptions,
    runs: RunGuard | None = None,
    sources: Tensor | None = None,
) -> Tensor:
    """``log_probs`` (b x V) of the next token after ``prefix`` (b x t, BOS first, not counted),
    changed in place by the controls of ``config`` (1.0 and 0: off); ``runs``: the search's
    ``max_repeat_run`` guard, ``sources`` the source of each row or beam (None: one source)."""
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
    if runs is not None and tokens.size(1) > 0:  # shapes only: no host synchronisation
        runs.forbid_chars(log_probs, tokens, sources)
        runs.forbid_units(log_probs, tokens, sources)
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


@dataclass(frozen=True)
class RunGuard:
    """``max_repeat_run`` n in one search: the tables on its device, and per source the runs it
    holds, which a translation may repeat: characters (code points, sources x m, :data:`NONE`
    for none) and, per unit length p, its runs of a unit of p pieces as target ids (sources x
    m x n·p; None where no source holds one). The masks pick, in the last n · MAX_PERIOD
    pieces, for each unit length p those it must repeat in and those of the unit itself."""

    n: int
    tables: RunTables
    chars: Tensor
    units: list[Tensor | None]  # [p - 1]: runs of units of p pieces
    inner_ids: Tensor  # K: the target pieces holding a run of n by themselves
    repeating: Tensor  # MAX_PERIOD x n·MAX_PERIOD: n repeats but the last piece
    starting: Tensor  # MAX_PERIOD x n·MAX_PERIOD: n - 1 repeats
    in_unit: Tensor  # MAX_PERIOD x n·MAX_PERIOD

    @classmethod
    def start(cls, tables: RunTables | None, src: Tensor, n: int) -> RunGuard | None:
        """The guard of a search of ``src`` (b x s source ids); None where it is off. One host
        synchronisation: whether any source holds a run of a character, and of units of each
        length (most hold none, and their steps then skip the comparisons)."""
        if tables is None or n == 0:
            return None
        inner = (tables.target.inner_len >= n).nonzero()[:, 0]  # on the host: no sync
        on = tables.to(src.device)
        width, p = n * MAX_PERIOD, torch.arange(1, MAX_PERIOD + 1, device=src.device)[:, None]
        position = torch.arange(width, device=src.device)
        chars, units = held_chars(src, on.source, n), held_units(src, on, n)
        held = torch.stack([(chars != NONE).any(), *[(w != NEVER).any() for w in units]]).tolist()
        return cls(
            n,
            on,
            chars if held[0] else chars[:, :0],
            [w if any_held else None for w, any_held in zip(units, held[1:], strict=True)],
            inner.to(src.device),
            position >= width - ((n - 1) * p - 1),
            position >= width - (n - 2) * p,
            position >= width - p,
        )

    def forbid_chars(self, log_probs: Tensor, tokens: Tensor, sources: Tensor | None) -> None:
        """Set to −∞ in ``log_probs`` (b x V) each piece that would make a run of n of one
        character after ``tokens`` (b x t, no BOS) that the row's source (``sources``: of each
        row or beam; None: one source) does not hold."""
        b, target, leads = log_probs.size(0), self.tables.target, self.tables.leads
        chars = per_row(self.chars, sources, b)  # b x 0 where no source holds a run
        char, length = trailing_run(tokens[:, -self.n :], target)  # a shorter run spans fewer
        key = leads.key[tokens[:, -1]]
        held = (char == NONE) | (chars == char[:, None]).any(1)  # b
        free = held | (key == NONE)
        group = key.clamp(min=0)
        need = (self.n - length).clamp(1, leads.at_least.size(1) - 1)
        count = leads.at_least[group, need].masked_fill(free, 0)  # b: pieces to forbid
        span = torch.arange(leads.width, device=tokens.device)
        place = (leads.start[group][:, None] + span).clamp(max=leads.flat.numel() - 1)
        penalty = log_probs.new_zeros(b, leads.width).masked_fill(span < count[:, None], -torch.inf)
        log_probs.scatter_add_(1, leads.flat[place], penalty)  # a repeated id adds 0
        spelt = self.tables.bytes[first_byte(char)]  # the same character in bytes
        last = (length >= self.n - 1) & ~held
        stop = log_probs.new_zeros(b, 1).masked_fill((last & (spelt != NONE))[:, None], -torch.inf)
        log_probs.scatter_add_(1, spelt.clamp(min=0)[:, None], stop)
        if self.inner_ids.numel() and self.chars.size(1):
            holds = (chars[:, :, None] == target.inner_char[self.inner_ids]).any(1)  # b x K
            inner = log_probs[:, self.inner_ids]
            log_probs[:, self.inner_ids] = inner.masked_fill(~holds, -torch.inf)
        elif self.inner_ids.numel():
            log_probs.index_fill_(1, self.inner_ids, -torch.inf)

    def forbid_units(self, log_probs: Tensor, tokens: Tensor, sources: Tensor | None) -> None:
        """Forbid the piece that would end the n-th repeat in a row of the last p pieces of
        ``tokens`` (b x t), for each p up to MAX_PERIOD, unless they spell a number, or one
        character (whose runs ``forbid_chars`` weighs), or the row's source holds the run. A
        unit with a byte piece is forbidden where its n-th repeat would start, never inside a
        character: a cut there leaves bytes that spell nothing."""
        width, longest = self.n * MAX_PERIOD, MAX_PERIOD
        pieces = last_pieces(tokens, width + longest)
        window = pieces[:, longest:]
        p = torch.arange(1, longest + 1, device=tokens.device)
        shifted = [pieces[:, longest - k : longest - k + width] for k in range(1, longest + 1)]
        before = torch.stack(shifted, dim=1)  # b x P x width: [p - 1] is p pieces earlier
        same_as_before = window[:, None, :] == before
        t, piece, unit = self.tables.target, window.clamp(min=0), self.in_unit
        spelt = self.tables.spelt[piece]
        in_bytes = ((spelt[:, None, :] > 0) & unit).any(-1)  # b x P
        periodic = torch.where(
            in_bytes,
            (same_as_before | ~self.starting).all(-1),
            (same_as_before | ~self.repeating).all(-1),
        )
        number = (t.numeric[piece][:, None, :] | ~unit).all(-1)
        number &= (t.digit[piece][:, None, :] & unit).any(-1)
        following = window[:, width - p]  # b x P: the piece each unit starts with
        first = t.trail_char[following.clamp(min=0)]
        same = t.whole[piece][:, None, :] & (t.trail_char[piece][:, None, :] == first[:, :, None])
        inside = self.tables.spelt[following.clamp(min=0)] == 2  # a byte within a character
        stop = periodic & ~number & ~(same | ~unit).all(-1) & ~inside
        for k, held in enumerate(self.units):
            if held is not None:
                stop[:, k] &= ~self.source_holds(held, window, following, k + 1, sources)
        penalty = log_probs.new_zeros(stop.shape).masked_fill(stop, -torch.inf)
        log_probs.scatter_add_(1, following.clamp(min=0), penalty)

    def source_holds(
        self, held: Tensor, window: Tensor, following: Tensor, p: int, sources: Tensor | None
    ) -> Tensor:
        """b: whether each row's source holds the run of units of p pieces that its next
        piece ``following[:, p - 1]`` would make: its last n·p pieces, or for a unit in bytes
        (forbidden at its n-th start) its last (n - 1)·p + 1."""
        width = window.size(1)
        run = torch.cat([window[:, width - (self.n * p - 1) :], following[:, p - 1 : p]], dim=1)
        rows = per_row(held, sources, window.size(0))  # b x m x n·p
        whole = (rows == run[:, None, :]).all(-1).any(-1)
        started = (self.n - 1) * p + 1
        begun = (rows[..., -started:] == run[:, None, -started:]).all(-1).any(-1)
        in_bytes = (self.tables.spelt[run[:, -p:].clamp(min=0)] > 0).any(-1)
        return torch.where(in_bytes, begun, whole)


def first_byte(char: Tensor) -> Tensor:
    """The first byte of each code point's UTF-8 (0 for :data:`NONE`)."""
    lead = torch.where(char < 0x10000, 0xE0 | (char >> 12), 0xF0 | (char >> 18))
    lead = torch.where(char < 0x800, 0xC0 | (char >> 6), lead)
    return torch.where(char < 0x80, char, lead).clamp(0, 255)


def last_pieces(tokens: Tensor, width: int) -> Tensor:
    """The last ``width`` pieces of each row of ``tokens`` (b x t), left-padded where t is
    shorter with ids below :data:`NEVER` that depend on the position only: padding repeats
    nothing, and two windows of different widths agree where they overlap."""
    short = width - tokens.size(1)
    if short <= 0:
        return tokens[:, tokens.size(1) - width :]
    pad = NEVER - short + torch.arange(short, device=tokens.device)
    return torch.cat([pad.expand(tokens.size(0), -1), tokens], dim=1)


def per_row(held: Tensor, sources: Tensor | None, b: int) -> Tensor:
    """``held`` (sources x …) for each of b rows: of source ``sources`` (each row's, or each
    group of b / len(sources) rows'), or all of the one source."""
    rows = held if sources is None else held[sources]
    if rows.size(0) == 1:
        return rows.expand(b, *rows.shape[1:])
    return rows.repeat_interleave(b // rows.size(0), dim=0)


def trailing_run(tokens: Tensor, runs: PieceRuns) -> tuple[Tensor, Tensor]:
    """The character each row of ``tokens`` (b x t) ends with a run of, and that run's length
    across pieces (b each; :data:`NONE` and 0 after a space or digit)."""
    char, length, whole = runs.trail_char[tokens], runs.trail_len[tokens], runs.whole[tokens]
    last = char[:, -1]
    same = char == last[:, None]  # b x t
    through = (same & whole)[:, 1:].flip(1).long().cumprod(1).flip(1)  # pieces after j: whole
    after = torch.cat([through, through.new_ones(through.size(0), 1)], dim=1)
    return last, (length * same * after).sum(1)


def held_chars(src: Tensor, runs: PieceRuns, n: int) -> Tensor:
    """The characters each source (b x s ids, padding 0) writes n or more times in a row:
    b x 2s code points, :data:`NONE` elsewhere. A run of n spans at most n pieces, so each
    piece is read after the n before it."""
    b, s = src.shape
    windows = torch.cat([src.new_zeros(b, n), src], dim=1).unfold(1, n + 1, 1)  # b x s x n+1
    char, length = trailing_run(windows[..., :-1].reshape(b * s, n), runs)
    piece = windows[..., -1].reshape(b * s)
    joins = (runs.lead_char[piece] == char) & (char != NONE)
    reached = torch.where(joins, length + runs.lead_len[piece], 0)
    across = torch.where(reached >= n, char, NONE)
    within = torch.where(runs.inner_len[piece] >= n, runs.inner_char[piece], NONE)
    return torch.cat([across.view(b, s), within.view(b, s)], dim=1)


def held_units(src: Tensor, tables: RunTables, n: int) -> list[Tensor]:
    """Per unit length p (1 … MAX_PERIOD), each source's runs of n repeats of a unit of p
    pieces, as target ids, from each of the unit's pieces: b x m·p x n·p windows
    (:data:`NEVER` in those that are not runs)."""
    ids = tables.source_to_target[src]  # b x s; NONE for a piece the target lacks
    found: list[Tensor] = []
    for p in range(1, MAX_PERIOD + 1):
        width = n * p
        if ids.size(1) < width:
            found.append(ids.new_full((ids.size(0), 1, width), NEVER))
            continue
        windows = ids.unfold(1, width, 1)  # b x m x n·p
        runs = (windows[..., p:] == windows[..., :-p]).all(-1) & (windows != NONE).all(-1)
        windows = windows.masked_fill(~runs[..., None], NEVER)
        # each run from each of its p pieces: a translation's run may start at any of them
        found.append(torch.cat([windows.roll(-r, dims=-1) for r in range(p)], dim=1))
    return found

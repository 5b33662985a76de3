"""The hypotheses a beam search has set aside, kept on the device until the search ends, and the
rule that says when a source is done (``beam.py``).

A source is done once it holds k hypotheses (k: the beam), and one step sets at most k aside,
so 2k - 1 slots per source suffice; candidates that do not count (not EOS, or of a source
already done) are written to one spare slot and forgotten. Nothing here reads the device from
the host until ``hypotheses`` (two transfers), so done sources may wait in the batch for the
next check (``checks.py``) without changing a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import torch
from torch import Tensor

from .checks import Horizon
from .hypothesis import Hypothesis, finish, length_penalty
from .options import SearchOptions


class LiveBeams(Protocol):
    """What this module reads of ``beam._Beams``."""

    source: Tensor  # n: index of each live source in the input batch
    scores: Tensor  # n x k
    prefix: Tensor  # n·k x t
    limits: Tensor  # n
    done: Tensor  # n


@dataclass
class Finished:
    """Per source of the input batch (b), its hypotheses in the order they were set aside."""

    prefix: Tensor  # b x 2k x T: BOS, the ids, padding (the first ``count`` slots are full)
    log_prob: Tensor  # b x 2k, float64
    count: Tensor  # b: hypotheses set aside
    best: Tensor  # b x n_best: the best scores so far (float64, -inf for none)
    bound: Tensor  # b: lp(limit + 1) (float64), the most a live beam's length penalty can reach
    attention: Tensor | None  # b x 2k x T x s, when asked for
    alpha: float  # the length penalty's α
    ids: tuple[int, int]  # EOS and padding

    @classmethod
    def start(
        cls, src: Tensor, config: SearchOptions, seen: Horizon, ids: tuple[int, int]
    ) -> Finished:
        """Room for the sources ``src`` (b x s), searched until ``seen.last_step`` (``ids``: EOS
        and padding)."""
        (b, s), room, width = src.shape, 2 * config.beam, seen.last_step + 2  # padding at the end
        alpha, wide = config.length_penalty, torch.float64
        bound = [length_penalty(limit + 1, alpha) for limit in seen.limits]
        att = src.new_zeros((b, room, width, s), dtype=torch.float) if config.attention else None
        return cls(
            src.new_full((b, room, width), ids[1]),
            src.new_zeros((b, room), dtype=wide),
            src.new_zeros(b),
            src.new_full((b, config.n_best), float("-inf"), dtype=wide),
            torch.tensor(bound, dtype=wide, device=src.device),  # one upload, before the search
            att,
            alpha,
            ids,
        )

    def add(
        self,
        beams: LiveBeams,
        candidates: tuple[Tensor, Tensor, Tensor],
        step: int,
        history: Tensor | None,
    ) -> None:
        """Set aside the EOS candidates ranked within the first k of a source not yet done
        (``candidates``: the first k scores, rows and tokens, n x k each; ``history``: the
        attention of each row followed by this step's, n·k x (step + 1) x s)."""
        scores, rows, tokens = candidates
        (n, k), spare = scores.shape, self.log_prob.size(1) - 1
        ends = (tokens == self.ids[0]) & scores.isfinite() & ~beams.done[:, None]  # n x k
        source = beams.source[:, None].expand(n, k)
        slot = self.count[beams.source][:, None] + ends.long().cumsum(1) - 1
        slot = slot.masked_fill(~ends, spare)
        self.prefix[:, :, : step + 1][source, slot] = beams.prefix[rows]
        self.log_prob[source, slot] = scores.to(self.log_prob.dtype)
        if self.attention is not None and history is not None:
            self.attention[:, :, : step + 1][source, slot] = history.view(n, k, step + 1, -1)
        lp = length_penalty(step + 1, self.alpha)  # on the host: as ``finish`` divides
        new = (scores.double() / lp).masked_fill(~ends, float("-inf"))
        kept = torch.cat([self.best[beams.source], new], dim=1)
        self.best[beams.source] = kept.topk(self.best.size(1), dim=1).values
        self.count[beams.source] += ends.sum(dim=1)

    def done(self, beams: LiveBeams, config: SearchOptions, step: int) -> Tensor:
        """Which live sources (n) are done: at their length limit, with k finished hypotheses, or
        with n-best ones that no live beam can still beat.

        The bound: a live beam's log-probability only falls as it grows, and with α ≥ 0 the
        penalty lp grows with length, so no descendant scores above log P / lp(limit + 1).
        """
        count = self.count[beams.source]
        done = beams.done | (beams.limits <= step) | (count >= config.beam)
        if config.length_penalty >= 0:
            best_live = beams.scores.max(dim=1).values.double() / self.bound[beams.source]
            beaten = best_live < self.best[beams.source, config.n_best - 1]
            done = done | ((count >= config.n_best) & beaten)
        return done

    def hypotheses(self, n_best: int, lengths: list[int]) -> list[list[Hypothesis]]:
        """Per source its ``n_best`` hypotheses, best first (``lengths``: source tokens)."""
        pad_id, room = self.ids[1], self.log_prob.size(1) - 1
        prefixes = self.prefix[:, :-1].tolist()
        # the scores and, last, the count of each source: slots fill in order, and the count
        # (not the slot's first id: BOS may be the padding id, as in Marian) says which are full
        counted = torch.cat([self.log_prob[:, :-1], self.count[:, None].double()], 1).tolist()
        found = []
        for source, (rows, (*scores, count)) in enumerate(zip(prefixes, counted, strict=True)):
            hyps = []
            filled = zip(rows[: min(int(count), room)], scores, strict=False)
            for slot, (row, log_prob) in enumerate(filled):
                ids = row[1 : row.index(pad_id, 1)]
                att = self.attention
                att = None if att is None else att[source, slot, : len(ids) + 1, : lengths[source]]
                hyps.append(finish(ids, log_prob, self.alpha, att))
            found.append(best_first(hyps, n_best))
        return found


def best_first(finished: list[Hypothesis], n_best: int) -> list[Hypothesis]:
    """The ``n_best`` highest-scoring hypotheses, best first."""
    return sorted(finished, key=lambda h: h.score, reverse=True)[:n_best]

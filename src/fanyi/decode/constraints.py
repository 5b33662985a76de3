"""Lexically constrained beam search: every translation holds given phrases (Post and Vilar,
2018, "Fast Lexically Constrained Decoding with Dynamic Beam Allocation"; fairseq's and
Sockeye's ``--constraints``).

A constraint is a list of target ids that must appear, in order and together, somewhere in the
translation. Each hypothesis carries its :class:`Progress`: the constraints it has met and how
far it is into the one it is writing. Each step's candidates are the 2k best extensions of the
beam (as in ``beam.py``), each hypothesis's own best one, and each one's extensions that advance
a constraint. The k kept are dealt among banks by how many constraint tokens they have met:
evenly among the banks that hold a candidate, what is left over to the fullest, and the slots a
bank leaves empty to the best candidates left. EOS ends a hypothesis only once it has met every
constraint, or at its length limit; a source's results are those that met them all, or, where
none did, those that ended at the limit.

Two refinements of the paper's search. A phrase may have several spellings in pieces (as a word of
its own, "▁https", and run on after a character, "https"), any of which meets it. And the first
search proposes no phrase's start: a phrase is begun only where the model itself begins it, and then
written through, which copies a long address where the model put it and only misspelt it. It ends as
a free search does, once k hypotheses have ended, those that end without every phrase dropped. Post
and Vilar's search, where a phrase may begin at any step, runs only where that finds fewer than the
n-best, and until k hypotheses hold every phrase. A phrase given as ``WholeWords`` (a Latin phrase)
is not run into a word: the piece after its last one does not continue that word ("Yang Fan will",
not "Yang Fani will").

This module holds a search's parts: a hypothesis's progress, each step's candidates, EOS and
the beam's allocation among banks. ``held_batch.py`` runs the search: each source's bookkeeping on
the host (k rows: a few transfers a step), the model's steps taken for a batch of sources at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

Spellings = list[list[int]]  # one phrase: each way the target vocabulary spells it
Phrase = Sequence[Sequence[int]]  # a phrase's spellings in target ids (at a word's start, …)
Constraints = Sequence[Phrase]  # per source: its phrases


class WholeWords(list[list[int]]):
    """A phrase's spellings held as whole words: once written, the next piece is none of
    ``continuing`` (the target pieces that continue a word), so "Li Wei" is not "Li Weiwei";
    and a spelling that runs on after a character (its first piece continues a word) is not
    proposed after a piece of ``ending`` (one that ends a word): "to Exit", not "toExit"."""

    def __init__(
        self,
        spellings: Spellings,
        continuing: Tensor,
        ending: frozenset[int] = frozenset(),
        run_on: frozenset[int] = frozenset(),
    ) -> None:
        super().__init__(spellings)
        self.continuing = continuing  # ids
        self.ending, self.run_on = ending, run_on  # ids; the run-on spellings' first ids


@dataclass(frozen=True)
class Progress:
    """Which constraints a hypothesis has met, and how far it is into the one it is writing."""

    met: tuple[bool, ...]
    current: tuple[int, int] = (-1, -1)  # the constraint being written and its spelling
    written: int = 0  # its tokens written so far
    closed: int = -1  # the constraint its last token completed

    def tokens_met(self, constraints: Constraints) -> int:
        """Constraint tokens written: the bank a hypothesis is in."""
        done = sum(len(c[0]) for c, m in zip(constraints, self.met, strict=True) if m)
        return done + self.written

    @property
    def complete(self) -> bool:
        return all(self.met)

    @property
    def writing(self) -> bool:
        return self.current[0] >= 0

    def wanted(self, constraints: Constraints, anywhere: bool) -> set[int]:
        """The next tokens that advance a constraint: the current one's next token, or else
        (``anywhere``) the first token of each spelling of each constraint not yet met."""
        if self.writing:
            phrase, spelling = self.current
            return {constraints[phrase][spelling][self.written]}
        if not anywhere:
            return set()
        return {f[0] for c, m in zip(constraints, self.met, strict=True) if not m for f in c}

    def after(self, token: int, constraints: Constraints) -> Progress:
        """The progress once ``token`` is written: the current constraint advanced, or abandoned
        (its tokens are no longer together) and perhaps one started anew."""
        phrase, spelling = self.current
        if self.writing and constraints[phrase][spelling][self.written] == token:
            return self._through(self.current, self.written + 1, constraints)
        for i, (forms, met) in enumerate(zip(constraints, self.met, strict=True)):
            for j, form in enumerate(forms):
                if not met and form[0] == token:
                    return self._through((i, j), 1, constraints)
        return Progress(self.met)

    def _through(
        self, current: tuple[int, int], written: int, constraints: Constraints
    ) -> Progress:
        if written < len(constraints[current[0]][current[1]]):
            return Progress(self.met, current, written)
        met = tuple(m or i == current[0] for i, m in enumerate(self.met))
        return Progress(met, closed=current[0])


@dataclass(frozen=True)
class _Candidate:
    """One extension of a live hypothesis (``row``) by ``token``."""

    log_prob: float
    row: int
    token: int
    progress: Progress
    bank: int  # constraint tokens met


def check_constraints(constraints: Constraints, vocab_size: int, special: set[int]) -> None:
    """Refuse a constraint without a spelling, an empty spelling, or one holding an id outside
    the target vocabulary or a special id (EOS, padding, BOS)."""
    for forms in constraints:
        if not forms or not all(forms):
            raise ValueError("a constraint is empty: give each as text of the target language")
        if any(not 0 <= i < vocab_size or i in special for form in forms for i in form):
            raise ValueError("a constraint may hold only target ids, no EOS, BOS or padding")


def candidates(
    log_probs: Tensor, live: list[_Candidate], constraints: Constraints, k: int, anywhere: bool
) -> list[_Candidate]:
    """The extensions of the ``live`` hypotheses worth weighing (``log_probs``: their rows'
    next-token log-probabilities): the 2k best of all, each one's best, and each one's
    extensions that advance a constraint (``Progress.wanted``); those the search forbids (−∞)
    left out, a piece that runs a ``WholeWords`` phrase just written into a word too, and
    without ``anywhere`` those that leave a constraint half written."""
    rows = torch.tensor([h.row for h in live], device=log_probs.device)
    step = log_probs[rows].double()  # m x V
    _close_words(step, live, constraints)
    total = step + torch.tensor([h.log_prob for h in live], device=step.device).double()[:, None]
    flat = total.flatten().topk(min(2 * k, total.numel())).indices
    own = total.argmax(dim=1)
    wanted = [
        (i, t)
        for i, h in enumerate(live)
        for t in sorted(h.progress.wanted(constraints, anywhere))
        if not _runs_into(h, t, constraints)
    ]
    bound = {i for i, h in enumerate(live) if h.progress.writing and not anywhere}
    vocab = total.size(1)
    pairs = [divmod(f, vocab) for f in flat.tolist()] + list(enumerate(own.tolist())) + wanted
    index = torch.tensor(pairs, device=total.device)
    scores = total[index[:, 0], index[:, 1]].tolist()
    found: dict[tuple[int, int], _Candidate] = {}
    for (i, token), score in zip(pairs, scores, strict=True):
        if i in bound and (i, token) not in wanted:
            continue  # the model started the phrase here: it writes it through
        if score != float("-inf") and (i, token) not in found:
            progress = live[i].progress.after(token, constraints)
            bank = progress.tokens_met(constraints)
            found[(i, token)] = _Candidate(score, live[i].row, token, progress, bank)
    return sorted(found.values(), key=lambda c: c.log_prob, reverse=True)


def _runs_into(hypothesis: _Candidate, token: int, constraints: Constraints) -> bool:
    """Whether ``token`` would begin a ``WholeWords`` phrase run into the word ``hypothesis``
    ends with ("toExit")."""
    if hypothesis.progress.writing:
        return False
    return any(
        isinstance(phrase, WholeWords)
        and token in phrase.run_on
        and hypothesis.token in phrase.ending
        for phrase in constraints
    )


def _close_words(step: Tensor, live: list[_Candidate], constraints: Constraints) -> None:
    """Forbid in ``step`` (a row per live hypothesis) the pieces that would continue the last
    word of a ``WholeWords`` phrase a hypothesis has just written, unless that forbids every
    piece: a target prefix's next piece is written whatever ("1400000" held as "1,400,000")."""
    for i, hypothesis in enumerate(live):
        closed = hypothesis.progress.closed
        if closed >= 0 and isinstance(phrase := constraints[closed], WholeWords):
            ids = phrase.continuing.to(step.device)
            kept = step[i, ids].clone()
            step[i, ids] = float("-inf")
            if not bool(torch.isfinite(step[i]).any()):  # the prefix's piece: forced
                step[i, ids] = kept


def ending(ranked: list[_Candidate], eos_id: int, k: int, at_limit: bool) -> list[_Candidate]:
    """The EOS candidates that end a hypothesis: those among the k best of the bank that has
    met every constraint (as in ``beam.py``, where they are among the k best of all), or at the
    length limit the k best of all."""
    first = ranked[:k] if at_limit else [c for c in ranked if c.progress.complete][:k]
    return [c for c in first if c.token == eos_id]


def dropped(ranked: list[_Candidate], eos_id: int, k: int) -> int:
    """The EOS candidates among the k best of all that miss a constraint: the hypotheses a free
    search would have ended here, which the first search counts as ended and drops."""
    return sum(c.token == eos_id and not c.progress.complete for c in ranked[:k])


def allocate(ranked: list[_Candidate], k: int) -> list[_Candidate]:
    """The k hypotheses to continue (``ranked``: best first): the beam dealt evenly among the
    banks that hold a candidate, the rest of k to the fullest banks, and the slots a bank
    leaves empty to the best candidates left (Post and Vilar, 2018, §3; Sockeye's sizes)."""
    banks: dict[int, list[_Candidate]] = {}
    for c in ranked:
        banks.setdefault(c.bank, []).append(c)
    share, extra = divmod(k, len(banks)) if banks else (0, 0)
    fullest = sorted(banks, reverse=True)
    chosen = [c for n, bank in enumerate(fullest) for c in banks[bank][: share + (n < extra)]]
    taken = {id(c) for c in chosen}
    chosen += [c for c in ranked if id(c) not in taken][: k - len(chosen)]
    return sorted(chosen, key=lambda c: c.log_prob, reverse=True)

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

Two refinements of the paper's search. A phrase may have several spellings in pieces (as a word
of its own, "▁https", and run on after a character, "https"), any of which meets it. And the
first search proposes no phrase's start: a phrase is begun only where the model itself begins
it, and then written through, which copies a long address where the model put it and only
misspelt it; Post and Vilar's search, where a phrase may begin at any step, runs only where that
finds fewer than the n-best.

A source with constraints is searched alone, its bookkeeping on the host (k rows: a few
transfers a step); the model's steps are ``beam.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from ..model import Model
from .hypothesis import (
    NO_TRANSLATION,
    Bias,
    Hypothesis,
    SearchTask,
    constrain,
    finish,
    length_penalty,
    piece_bias,
    step_log_probs,
    target_limits,
)
from .options import SearchOptions
from .prefix import prefix_lengths
from .repetition import RunGuard, penalise_repeats

Spellings = list[list[int]]  # one phrase: each way the target vocabulary spells it
Phrase = Sequence[Sequence[int]]  # a phrase's spellings in target ids (at a word's start, …)
Constraints = Sequence[Phrase]  # per source: its phrases


@dataclass(frozen=True)
class Progress:
    """Which constraints a hypothesis has met, and how far it is into the one it is writing."""

    met: tuple[bool, ...]
    current: tuple[int, int] = (-1, -1)  # the constraint being written and its spelling
    written: int = 0  # its tokens written so far

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
        return Progress(tuple(m or i == current[0] for i, m in enumerate(self.met)))


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
    left out, and without ``anywhere`` those that leave a constraint half written."""
    rows = torch.tensor([h.row for h in live], device=log_probs.device)
    step = log_probs[rows].double()  # m x V
    total = step + torch.tensor([h.log_prob for h in live], device=step.device).double()[:, None]
    flat = total.flatten().topk(min(2 * k, total.numel())).indices
    own = total.argmax(dim=1)
    wanted = [
        (i, t) for i, h in enumerate(live) for t in sorted(h.progress.wanted(constraints, anywhere))
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


def ending(ranked: list[_Candidate], eos_id: int, k: int, at_limit: bool) -> list[_Candidate]:
    """The EOS candidates that end a hypothesis: those among the k best of the bank that has
    met every constraint (as in ``beam.py``, where they are among the k best of all), or at the
    length limit the k best of all."""
    first = ranked[:k] if at_limit else [c for c in ranked if c.progress.complete][:k]
    return [c for c in first if c.token == eos_id]


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


@dataclass
class _Search:
    """One source's constrained search as it goes: its rows' tokens and attention, and the
    hypotheses that ended (``met``: with every constraint; ``cut``: at the length limit)."""

    prefix: Tensor  # k x t: BOS, the tokens so far
    history: Tensor | None  # k x t x s: each row's attention, when asked for
    met: list[Hypothesis]
    cut: list[Hypothesis]
    alpha: float

    def end(self, ended: list[_Candidate], attention: Tensor | None) -> None:
        """Set aside the hypotheses that end with this step's EOS."""
        for c in ended:
            tokens = self.prefix[c.row, 1:].tolist()
            att = None
            if attention is not None:
                past = self.history[c.row] if self.history is not None else attention[:0]
                att = torch.cat([past, attention[c.row, None]])
            hyp = finish(tokens, c.log_prob, self.alpha, att)
            (self.met if c.progress.complete else self.cut).append(hyp)

    def advance(self, chosen: list[_Candidate], attention: Tensor | None, k: int) -> Tensor:
        """Continue ``chosen`` (at most k; the rest of the k rows repeat the first); the rows
        they extend, for the decoder state."""
        rows = [c.row for c in chosen] + [chosen[0].row] * (k - len(chosen))
        index = torch.tensor(rows, device=self.prefix.device)
        tokens = [c.token for c in chosen] + [chosen[0].token] * (k - len(chosen))
        step = torch.tensor(tokens, device=self.prefix.device)[:, None]
        self.prefix = torch.cat([self.prefix[index], step], dim=1)
        if attention is not None:
            step_att = attention[index, None]
            past = self.history
            self.history = step_att if past is None else torch.cat([past[index], step_att], 1)
        return index

    def finished(self, config: SearchOptions, live_best: float, bound: float) -> bool:
        """Whether k hypotheses have met every constraint, or n-best have and no live one (best
        log P ``live_best``; ``bound``: lp at the length limit) can still beat them (as in
        ``finished.py``)."""
        if len(self.met) >= config.beam:
            return True
        if len(self.met) < config.n_best or self.alpha < 0:
            return False
        scores = sorted((h.score for h in self.met), reverse=True)
        return live_best / bound < scores[config.n_best - 1]


@torch.inference_mode()
def constrained_search(
    model: Model, task: SearchTask, constraints: Constraints
) -> list[Hypothesis]:
    """The ``options.n_best`` best translations of ``task``'s one source (1 x s) that hold every
    constraint (target ids, each a phrase), through its target prefix; beam width
    ``options.beam``."""
    config, src, forced = task.options, task.src, task.forced
    if config.sampling:
        raise ValueError("constraints need beam search (or greedy decoding), not sampling")
    special = {task.bos_id, task.eos_id, model.config.pad_id}
    check_constraints(constraints, model.config.tgt_vocab_size, special)
    limit = _limit(model, src, config, forced, sum(max(map(len, c)) for c in constraints))
    spelt = [i for forms in constraints for form in forms for i in form]
    exempt = torch.tensor(spelt, device=src.device)
    if forced is not None:
        exempt = torch.cat([exempt, forced.flatten()])
    bias = piece_bias(model, config, src, exempt)  # a constraint is never refused nor penalised
    met, cut = _search(model, task, constraints, bias, limit, anywhere=False)
    if len(met) < config.n_best:  # too few where the model put them: anywhere
        more, cut = _search(model, task, constraints, bias, limit, anywhere=True)
        met += [h for h in more if all(h.tokens != m.tokens for m in met)]
    if not met and not cut:
        raise ValueError(NO_TRANSLATION)
    return sorted(met or cut, key=lambda h: h.score, reverse=True)[: config.n_best]


def _search(
    model: Model,
    task: SearchTask,
    constraints: Constraints,
    bias: Bias | None,
    limit: int,
    anywhere: bool,
) -> tuple[list[Hypothesis], list[Hypothesis]]:
    """One constrained beam search of ``task``, each phrase started where the model starts it,
    or ``anywhere`` (Post and Vilar's candidates): the hypotheses that hold every phrase, and
    those that ended at the length limit without."""
    config, src, eos_id = task.options, task.src, task.eos_id
    k, bos_id = config.beam, task.bos_id
    state = model.start_decoding(src, beams=k)
    search = _Search(src.new_full((k, 1), bos_id), None, [], [], config.length_penalty)
    live = [_Candidate(0.0, 0, bos_id, Progress((False,) * len(constraints)), 0)]
    limits, rows_forced = torch.full((k,), limit, device=src.device), _rows(task.forced, k)
    runs = RunGuard.start(task.runs, src, config.max_repeat_run)
    for step in range(limit + 1):
        task.between_steps()
        tokens = search.prefix[:, -1:]
        log_probs, attention = step_log_probs(model, tokens, state, config.attention, bias)
        penalise_repeats(log_probs, search.prefix, config, runs)
        constrain(log_probs, step, limits, config.min_len, eos_id, rows_forced)
        ranked = candidates(log_probs, live, constraints, k, anywhere)
        search.end(ending(ranked, eos_id, k, step >= limit), attention)
        live = allocate([c for c in ranked if c.token != eos_id], k)
        bound = length_penalty(limit + 1, config.length_penalty)
        if not live or search.finished(config, live[0].log_prob, bound):
            break
        state.reorder(search.advance(live, attention, k))
        live = [_in_row(c, i) for i, c in enumerate(live)]
    return search.met, search.cut


def _in_row(candidate: _Candidate, row: int) -> _Candidate:
    """``candidate`` as the live hypothesis in ``row`` of the next step."""
    return _Candidate(candidate.log_prob, row, candidate.token, candidate.progress, candidate.bank)


def _rows(forced: Tensor | None, k: int) -> Tensor | None:
    return None if forced is None else forced.expand(k, -1)


def _limit(
    model: Model, src: Tensor, config: SearchOptions, forced: Tensor | None, total: int
) -> int:
    """Most tokens before EOS: the search's limit, raised to hold the target prefix and every
    constraint (within the model's positions, else a ValueError)."""
    limit = int(target_limits(model, src, config, forced)[0])
    prefix = 0 if forced is None else int(prefix_lengths(forced)[0])
    most = model.config.max_len - 1
    if prefix + total > most:
        raise ValueError(f"the constraints and prefix hold {prefix + total} tokens; at most {most}")
    return max(limit, prefix + total)

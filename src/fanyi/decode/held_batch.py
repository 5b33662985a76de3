"""Lexically constrained beam search (``constraints.py``) of several sources at once: each source
has its own k hypotheses, banks, length limit, bias and guards, kept on the host, and
the model's steps are taken for all of them together, one batch of k rows per source a step, as
``beam.py`` takes them. A source whose search has ended leaves the batch; rows never move between
sources, so a source's translations are those it gets searched alone."""

from __future__ import annotations

from dataclasses import dataclass, replace

import torch
from torch import Tensor

from ..model import Model
from .constraints import (
    Constraints,
    Progress,
    _Candidate,
    allocate,
    candidates,
    check_constraints,
    dropped,
    ending,
)
from .ensemble import MixtureGenerator
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


@dataclass
class _Search:
    """One source's constrained search as it goes: its rows' tokens and attention, and the
    hypotheses that ended (``met``: with every constraint; ``cut``: at the length limit)."""

    prefix: Tensor  # k x t: BOS, the tokens so far
    history: Tensor | None  # k x t x s: each row's attention, when asked for
    met: list[Hypothesis]
    cut: list[Hypothesis]
    alpha: float
    dropped: int = 0  # hypotheses ended without every constraint (the first search's)

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
        """Whether k hypotheses have ended (those that met every constraint and those dropped),
        or n-best have met them and no live one (best log P ``live_best``; ``bound``: lp at the
        length limit) can still beat them (as in ``finished.py``)."""
        if len(self.met) + self.dropped >= config.beam:
            return True
        if len(self.met) < config.n_best or self.alpha < 0:
            return False
        scores = sorted((h.score for h in self.met), reverse=True)
        return live_best / bound < scores[config.n_best - 1]


@dataclass
class _Source:
    """One source's constrained search inside a batch."""

    constraints: Constraints
    anywhere: bool  # a phrase may start at any step (Post and Vilar), not only where the model does
    limit: int
    limits: Tensor  # k: the limit in each row
    bias: Bias | None
    forced: Tensor | None  # k x p: its target prefix in every row
    search: _Search
    live: list[_Candidate]
    index: Tensor  # k: the rows its next step continues
    refused: Tensor | None = None  # V: added before the softmax (``allowed_softmax``, ``_refused``)
    done: bool = False

    def step(
        self, log_probs: Tensor, attention: Tensor | None, step: int, task: SearchTask
    ) -> None:
        """Weigh this step's ``log_probs`` (k x V, the source's rows, biased and guarded
        already: ``_weigh``) as ``constraints.py`` does: set aside the hypotheses that end,
        keep k to continue, or end the search."""
        config, k, eos_id = task.options, task.options.beam, task.eos_id
        constrain(log_probs, step, self.limits, config.min_len, eos_id, self.forced)
        ranked = candidates(log_probs, self.live, self.constraints, k, self.anywhere)
        self.search.end(ending(ranked, eos_id, k, step >= self.limit), attention)
        if not self.anywhere:  # the first search ends as a free one does
            self.search.dropped += dropped(ranked, eos_id, k)
        self.live = allocate([c for c in ranked if c.token != eos_id], k)
        bound = length_penalty(self.limit + 1, config.length_penalty)
        best = self.live[0].log_prob if self.live else 0.0
        if not self.live or step >= self.limit or self.search.finished(config, best, bound):
            self.done, self.index = True, torch.arange(k, device=log_probs.device)
            return
        self.index = self.search.advance(self.live, attention, k)
        self.live = [_in_row(c, i) for i, c in enumerate(self.live)]


def constrained_search(
    model: Model, task: SearchTask, constraints: Constraints
) -> list[Hypothesis]:
    """The ``options.n_best`` best translations of ``task``'s one source (1 x s) that hold every
    constraint (target ids, each a phrase), through its target prefix."""
    return constrained_searches(model, task, [constraints])[0]


@torch.inference_mode()
def constrained_searches(
    model: Model, task: SearchTask, constraints: list[Constraints]
) -> list[list[Hypothesis]]:
    """The ``options.n_best`` best translations of each of ``task``'s sources (b x s, right
    padded) that hold every one of its constraints (target ids, each a phrase), through its
    target prefix; beam width ``options.beam``. A source with no translation is a ValueError."""
    config = task.options
    if config.sampling:
        raise ValueError("constraints need beam search (or greedy decoding), not sampling")
    special = {task.bos_id, task.eos_id, model.config.pad_id}
    for phrases in constraints:
        check_constraints(phrases, model.config.tgt_vocab_size, special)
    if config.allowed_softmax and len(constraints) > 1 and _mixed(model):
        return [_alone(model, task, j, phrases)[0] for j, phrases in enumerate(constraints)]
    first = _batched(model, task, constraints, anywhere=False)
    again = [j for j, (met, _) in enumerate(first) if len(met) < config.n_best]
    if again:  # too few where the model put them: anywhere
        rows = torch.tensor(again, device=task.src.device)
        forced = None if task.forced is None else task.forced[rows]
        part = task.part(task.src[rows], forced)
        more = _batched(model, part, [constraints[j] for j in again], anywhere=True)
        for j, (extra, cut) in zip(again, more, strict=True):
            met = first[j][0]
            first[j] = (met + [h for h in extra if all(h.tokens != m.tokens for m in met)], cut)
    return [_best(met, cut, config.n_best) for met, cut in first]


def _alone(
    model: Model, task: SearchTask, j: int, constraints: Constraints
) -> list[list[Hypothesis]]:
    """Source ``j`` of ``task`` searched by itself, without the batch's padding."""
    src = task.src[j : j + 1]
    src = src[:, : int((src != model.config.pad_id).sum())]
    forced = None if task.forced is None else task.forced[j : j + 1]
    return constrained_searches(model, task.part(src, forced), [constraints])


def _mixed(model: Model) -> bool:
    """Whether ``model`` mixes members' probabilities: with ``allowed_softmax`` each member is
    normalised over the allowed pieces before the mixing, so its sources are searched alone."""
    return isinstance(model.generator, MixtureGenerator)


def _best(met: list[Hypothesis], cut: list[Hypothesis], n_best: int) -> list[Hypothesis]:
    if not met and not cut:
        raise ValueError(NO_TRANSLATION)
    return sorted(met or cut, key=lambda h: h.score, reverse=True)[:n_best]


def _batched(
    model: Model, task: SearchTask, constraints: list[Constraints], anywhere: bool
) -> list[tuple[list[Hypothesis], list[Hypothesis]]]:
    """One constrained beam search of each source of ``task`` (``constraints.py``'s
    ``anywhere``), the model stepping all of them together: per source, the hypotheses that
    hold every phrase, and those that ended at the length limit without."""
    k = task.options.beam
    sources = [_start(model, task, j, phrases, anywhere) for j, phrases in enumerate(constraints)]
    state = model.start_decoding(task.src, beams=k)
    alone = len(sources) == 1 and _mixed(model)  # its bias in the step: the members' softmax
    bias = sources[0].bias if alone else _refusing(sources, k)
    runs = RunGuard.start(task.runs, task.src, task.options.max_repeat_run)
    running = sources  # in the order of the state's rows, k each
    for step in range(max(s.limit for s in sources) + 1):
        task.between_steps()
        tokens = torch.cat([s.search.prefix[:, -1:] for s in running])
        log_probs, attention = step_log_probs(model, tokens, state, task.options.attention, bias)
        _weigh(log_probs, running, sources, task.options, runs, biased=alone)
        for j, source in enumerate(running):
            rows = slice(j * k, (j + 1) * k)
            at = None if attention is None else attention[rows]
            source.step(log_probs[rows], at, step, task)
        if all(s.done for s in running):
            break
        index = torch.cat([s.index + j * k for j, s in enumerate(running) if not s.done])
        if any(s.done for s in running):  # the sources that ended leave the batch
            state.select(index)
            running = [s for s in running if not s.done]
            bias = bias if alone else _refusing(running, k)
        else:
            state.reorder(index)
    return [(s.search.met, s.search.cut) for s in sources]


def _refusing(running: list[_Source], k: int) -> Bias | None:
    """``allowed_softmax`` for sources stepped together on the whole output layer: each row's
    logits get its source's ``refused`` before the softmax (k rows a source), so that a row is
    normalised over its own allowed pieces whatever its neighbours allow. None where no source
    restricts its softmax."""
    rows = [s.refused for s in running]
    shape = next((r for r in rows if r is not None), None)
    if shape is None:
        return None
    whole = torch.zeros_like(shape)
    return Bias(None, before=torch.cat([(whole if r is None else r).expand(k, -1) for r in rows]))


def _refused(bias: Bias | None, pad_id: int) -> Tensor | None:
    """What ``allowed_softmax`` adds to a source's logits before the softmax: −∞ where its bias
    is −∞ (its suppressed pieces, not its phrases') and on padding, 0 elsewhere. None where
    nothing is suppressed: its softmax is the whole one."""
    if bias is None or bias.row is None:
        return None
    suppressed = bias.row == float("-inf")
    if not suppressed.any():
        return None
    refused = torch.zeros_like(bias.row).masked_fill_(suppressed, float("-inf"))
    refused[pad_id] = float("-inf")
    return refused


def _weigh(
    log_probs: Tensor,
    running: list[_Source],
    sources: list[_Source],
    config: SearchOptions,
    runs: RunGuard | None,
    biased: bool,
) -> None:
    """Add each ``running`` source's bias to its k rows of ``log_probs`` (unless the step
    added it: ``biased``), then guard every row against repeats at once (``runs``: the batch's
    guard; a row's source is its place in ``sources``), as ``beam.py`` does."""
    k = config.beam
    if not biased:
        for j, source in enumerate(running):
            if source.bias is not None and source.bias.row is not None:
                log_probs[j * k : (j + 1) * k] += source.bias.row.to(log_probs.dtype)
    prefix = torch.cat([s.search.prefix for s in running])
    place = {id(s): n for n, s in enumerate(sources)}
    index = torch.tensor([place[id(s)] for s in running], device=log_probs.device)
    penalise_repeats(log_probs, prefix, config, runs, index)


def _start(
    model: Model, task: SearchTask, j: int, constraints: Constraints, anywhere: bool
) -> _Source:
    """Source ``j`` of ``task`` ready to search: its limit, bias, guard and first hypothesis."""
    config, k = task.options, task.options.beam
    src = task.src[j : j + 1]
    src = src[:, : int((src != model.config.pad_id).sum())]  # without the batch's padding
    forced = None if task.forced is None else task.forced[j : j + 1]
    longest = sum(max(map(len, c)) for c in constraints)
    limit = _limit(model, src, config, forced, longest)
    spelt = [i for forms in constraints for form in forms for i in form]
    exempt = torch.tensor(spelt, device=src.device)
    if forced is not None:
        exempt = torch.cat([exempt, forced.flatten()])
    # a constraint is never refused nor penalised; the output layer onto the allowed pieces is
    # made only where members mix (alone), else allowed_softmax masks the whole one (_refused)
    mixed = _mixed(model)
    whole = mixed or not config.allowed_softmax  # replace() checks every option again
    bias = piece_bias(
        model, config if whole else replace(config, allowed_softmax=False), src, exempt
    )
    refused = _refused(bias, model.config.pad_id) if config.allowed_softmax and not mixed else None
    search = _Search(src.new_full((k, 1), task.bos_id), None, [], [], config.length_penalty)
    first = _Candidate(0.0, 0, task.bos_id, Progress((False,) * len(constraints)), 0)
    index = torch.arange(k, device=src.device)
    forced_rows = _rows(forced, k)
    limits = torch.full((k,), limit, device=src.device)
    return _Source(
        constraints, anywhere, limit, limits, bias, forced_rows, search, [first], index, refused
    )


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

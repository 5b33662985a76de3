"""Search over the decoder's incremental state: greedy decoding, sampling, and the entry point.

Every search feeds only the newest token through the decoder (its key/value cache holds the
rest), sets finished hypotheses aside and shrinks the batch to the live rows with
``state.select``, so a batch costs what its unfinished sentences cost. Beam search is in
``beam.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor

from ..data.vocab import BOS_ID, EOS_ID
from ..model import Model, State
from .beam import beam_search
from .checks import horizon
from .hypothesis import (
    Hypothesis,
    Search,
    SearchTask,
    StepHook,
    constrain,
    finish,
    no_pause,
    piece_bias,
    possible,
    source_lengths,
    step_log_probs,
    target_limits,
)
from .long_input import check_lengths, join_pieces, split_long_sources
from .options import SearchOptions
from .parallel import in_parallel
from .prefix import check_prefixes, first_pieces
from .repetition import RunGuard, penalise_repeats
from .top_k import top_k

Pick = Callable[[Tensor], Tensor]  # log-probabilities b x V → next tokens b
Ids = tuple[int, int]  # EOS and padding


@dataclass
class _Paths:
    """The rows of a single-path search (greedy or sampling) not yet dropped at a check."""

    slot: Tensor  # b: index of the output each row will fill
    prefix: Tensor  # b x t: tokens fed so far, BOS first (padding after EOS)
    log_prob: Tensor  # b: log P(prefix up to its EOS)
    limits: Tensor  # b: most tokens before EOS
    ended: Tensor  # b: whether the row has chosen EOS
    attention: Tensor | None  # b x t x s, when asked for
    forced: Tensor | None  # b x p: the target prefix of each row (``prefix.py``)

    @classmethod
    def start(cls, task: SearchTask, limits: Tensor) -> _Paths:
        """One row per source of ``task``, BOS fed, through its target prefix."""
        src = task.src
        b = src.size(0)
        return cls(
            torch.arange(b, device=src.device),
            src.new_full((b, 1), task.bos_id),
            torch.zeros(b, device=src.device),
            limits,
            torch.zeros(b, dtype=torch.bool, device=src.device),
            None,
            task.forced,
        )

    def extend(self, tokens: Tensor, log_probs: Tensor, attention: Tensor | None, ids: Ids) -> None:
        """Append the chosen ``tokens`` (b; padding in rows that have ended) and their
        log-probabilities (``ids``: EOS and padding)."""
        eos_id, pad_id = ids
        tokens = tokens.masked_fill(self.ended, pad_id)
        self.prefix = torch.cat([self.prefix, tokens[:, None]], dim=1)
        gain = log_probs.gather(1, tokens[:, None])[:, 0]
        self.log_prob = self.log_prob + gain.masked_fill(self.ended, 0.0)
        self.ended = self.ended | (tokens == eos_id)
        if attention is not None:
            step = attention[:, None]  # b x 1 x s
            self.attention = (
                step if self.attention is None else torch.cat([self.attention, step], 1)
            )

    def select(self, index: Tensor) -> None:
        """Keep rows ``index``."""
        self.slot, self.prefix = self.slot[index], self.prefix[index]
        self.log_prob, self.limits = self.log_prob[index], self.limits[index]
        self.ended = self.ended[index]
        if self.attention is not None:
            self.attention = self.attention[index]
        if self.forced is not None:
            self.forced = self.forced[index]


@dataclass
class _Outputs:
    """Each source's path as last seen at a check, kept on the device until the search ends."""

    prefix: Tensor  # b x T: BOS, the tokens, EOS, padding
    log_prob: Tensor  # b, float64 (any search's dtype)
    attention: Tensor | None  # b x T x s

    @classmethod
    def start(cls, src: Tensor, last_step: int, pad_id: int, attention: bool) -> _Outputs:
        """Room for sources ``src`` (b x s) searched until ``last_step``."""
        b, width = src.size(0), last_step + 2
        att = src.new_zeros((b, width, src.size(1)), dtype=torch.float) if attention else None
        return cls(src.new_full((b, width), pad_id), src.new_zeros(b, dtype=torch.float64), att)

    def record(self, live: _Paths) -> None:
        """Copy every live row to its slot (an unfinished one is copied again later)."""
        t = live.prefix.size(1)
        self.prefix[live.slot, :t] = live.prefix
        self.log_prob[live.slot] = live.log_prob.to(self.log_prob.dtype)
        if self.attention is not None and live.attention is not None:
            self.attention[live.slot, : t - 1] = live.attention

    def hypotheses(self, lengths: list[int], eos_id: int, alpha: float) -> list[Hypothesis]:
        """One hypothesis per source; two transfers."""
        found = []
        for slot, (row, log_prob) in enumerate(
            zip(self.prefix.tolist(), self.log_prob.tolist(), strict=True)
        ):
            ids = row[1 : row.index(eos_id)]
            att = self.attention
            att = None if att is None else att[slot, : len(ids) + 1, : lengths[slot]]
            found.append(finish(ids, log_prob, alpha, att))
        return found


def drop_ended(state: State, live: _Paths) -> bool:
    """Drop the rows that have ended (one host sync); whether any row is left."""
    keep = (~live.ended).nonzero()[:, 0]
    if 0 < keep.numel() < live.ended.numel():
        state.select(keep)
        live.select(keep)
    return keep.numel() > 0


@torch.inference_mode()
def single_path_search(model: Model, task: SearchTask, pick: Pick) -> list[Hypothesis]:
    """Extend one hypothesis per source of ``task`` with ``pick`` until EOS, through its target
    prefix; one result per source. Ended rows stay in the batch until the next check
    (``checks.py``)."""
    src, config, eos_id, pad_id = task.src, task.options, task.eos_id, model.config.pad_id
    limits = target_limits(model, src, config, task.forced)
    seen = horizon(source_lengths(model, src), limits)
    bias = piece_bias(model, config, src, task.forced)
    state = model.start_decoding(src)
    live = _Paths.start(task, limits)
    outputs = _Outputs.start(src, seen.last_step, pad_id, config.attention)
    runs = RunGuard.start(task.runs, src, config.max_repeat_run)
    for step in itertools.count():
        task.between_steps()
        tokens = live.prefix[:, -1:]
        log_probs, attention = step_log_probs(model, tokens, state, config.attention, bias)
        penalise_repeats(log_probs, live.prefix, config, runs, live.slot)
        constrain(
            log_probs, step, live.limits, config.min_len, eos_id, live.forced, seen.first_limit
        )
        log_probs[:, eos_id].masked_fill_(live.ended, 0.0)  # a valid draw for rows already ended
        live.extend(pick(log_probs), log_probs, attention, (eos_id, pad_id))
        if seen.is_check(step):
            outputs.record(live)
            if not drop_ended(state, live):
                break
    return outputs.hypotheses(seen.lengths, eos_id, config.length_penalty)


def greedy_pick(log_probs: Tensor) -> Tensor:
    """The most probable next token of each row."""
    return top_k(log_probs, 1)[1][:, 0]


def sampler(config: SearchOptions, generator: torch.Generator | None) -> Pick:
    """Draw the next token from the model's distribution, reshaped by temperature, top-k, top-p."""

    def pick(log_probs: Tensor) -> Tensor:
        logits = log_probs / config.temperature
        if config.top_k:
            kth = logits.topk(min(config.top_k, logits.size(-1)), dim=-1).values[:, -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        if config.top_p < 1.0:
            logits = nucleus(logits, config.top_p)
        # a row whose every token the options rule out (−∞) draws any one: its path then scores
        # −∞ and is dropped (``possible``), where a draw would stop the whole batch
        probs = logits.softmax(dim=-1).nan_to_num(nan=1.0)
        return torch.multinomial(probs, 1, generator=generator)[:, 0]

    return pick


def nucleus(logits: Tensor, top_p: float) -> Tensor:
    """Keep the smallest set of most probable tokens whose probability reaches ``top_p`` (b x V)."""
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    probs = sorted_logits.softmax(dim=-1)
    before = probs.cumsum(dim=-1) - probs  # probability of the tokens ranked above each one
    drop_sorted = before >= top_p  # the first token always stays (before = 0)
    drop = torch.empty_like(drop_sorted).scatter_(-1, order, drop_sorted)  # back to vocab order
    return logits.masked_fill(drop, float("-inf"))


def greedy_decode(model: Model, task: SearchTask) -> list[list[Hypothesis]]:
    """The most probable token at each step (after each source's target prefix); one
    hypothesis per source."""
    return [[h] for h in single_path_search(model, task, greedy_pick)]


def sample(model: Model, task: SearchTask) -> list[list[Hypothesis]]:
    """``options.n_best`` samples per source of ``task`` (each through its target prefix),
    reproducible with ``options.seed``."""
    config, src, forced = task.options, task.src, task.forced
    generator = None  # a seed draws on a generator of the device that samples (CUDA wants one)
    if config.seed is not None:
        generator = torch.Generator(device=src.device).manual_seed(config.seed)
    n = config.n_best
    if forced is not None:
        forced = forced.repeat_interleave(n, dim=0)
    copies = task.part(src.repeat_interleave(n, dim=0), forced)
    flat = single_path_search(model, copies, sampler(config, generator))
    return [flat[i : i + n] for i in range(0, len(flat), n)]


def search_function(config: SearchOptions) -> Search:
    """The search ``config`` asks for: sampling, greedy (beam 1) or beam search."""
    if config.sampling:
        return sample
    return greedy_decode if config.beam == 1 else beam_search


def decode(
    model: Model,
    src: Tensor,
    options: SearchOptions,
    bos_id: int = BOS_ID,
    eos_id: int = EOS_ID,
    between_steps: StepHook = no_pause,
    workers: int = 1,
    forced: Tensor | None = None,
) -> list[list[Hypothesis]]:
    """Translate a batch of right-padded source ids (b x s): per source, its n-best, best first.

    The model should already be in its decoding dtype (``engines/dtype.prepare_model``).
    ``between_steps`` runs before every decoding step (see ``StepHook``); ``workers`` > 1 splits
    the batch across as many processes (``parallel.py``); ``forced`` (b x p): each source's
    target prefix (``prefix.py``). Where the options leave a source no translation, a ValueError
    says so (``possible``).
    """
    return search_task(
        model, SearchTask(src, options, bos_id, eos_id, between_steps, forced), workers
    )


def search_task(model: Model, task: SearchTask, workers: int = 1) -> list[list[Hypothesis]]:
    """:func:`decode` of ``task``: a source longer than the model's positions cut into pieces
    (``long_input: split``) or refused, then the search its options ask for, by ``workers``."""
    src, options, pad_id = task.src, task.options, model.config.pad_id
    lengths, max_len = source_lengths(model, src), model.config.max_len
    check_prefixes(task.forced, (task.eos_id, pad_id), max_len)
    if task.eos_id in options.suppress_ids:
        raise ValueError("suppress_ids may not hold EOS: every translation ends with it")
    if src.size(1) > max_len:
        if options.long_input == "split":
            pieces, owner = split_long_sources(src, lengths, max_len, pad_id)
            part = task.part(pieces, first_pieces(task.forced, owner))
            return join_pieces(search_task(model, part, workers), owner, options)
        check_lengths(lengths, max_len)
        task = task.part(src[:, :max_len], task.forced)  # only padding beyond max_len
    search = search_function(options)
    if workers > 1 and src.size(0) > 1:
        return possible(in_parallel(search, model, task, workers))
    return possible(search(model, task))


@torch.no_grad()
def greedy_search(
    model: Model, src: Tensor, bos_id: int, eos_id: int, max_len: int
) -> list[list[int]]:
    """Greedy ids (no BOS/EOS) for each source, at most ``max_len`` tokens: for validation BLEU."""
    config = SearchOptions(beam=1, max_len_a=0.0, max_len_b=max_len, length_penalty=0.0)
    task = SearchTask(src, config, bos_id, eos_id)
    return [hyps[0].tokens for hyps in greedy_decode(model, task)]

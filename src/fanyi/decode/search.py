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
from ..model import Model
from .beam import beam_search
from .hypothesis import (
    Hypothesis,
    StepHook,
    constrain,
    finish,
    no_pause,
    source_lengths,
    step_log_probs,
    target_limits,
)
from .long_input import check_lengths, join_pieces, split_long_sources
from .options import SearchOptions
from .parallel import in_parallel
from .prefix import check_prefixes, first_pieces
from .repetition import penalise_repeats
from .top_k import top_k

Pick = Callable[[Tensor], Tensor]  # log-probabilities b x V → next tokens b


@dataclass
class _Paths:
    """The unfinished rows of a single-path search (greedy or sampling)."""

    slot: Tensor  # b: index of the output each row will fill
    prefix: Tensor  # b x t: tokens fed so far, BOS first
    log_prob: Tensor  # b: log P(prefix)
    limits: Tensor  # b: most tokens before EOS
    attention: Tensor | None  # b x t x s, when asked for
    forced: Tensor | None  # b x p: the target prefix of each row (``prefix.py``)

    @classmethod
    def start(
        cls, model: Model, src: Tensor, config: SearchOptions, bos_id: int, forced: Tensor | None
    ) -> _Paths:
        """One row per source (b x s), BOS fed, through its target prefix ``forced``."""
        b = src.size(0)
        return cls(
            torch.arange(b, device=src.device),
            src.new_full((b, 1), bos_id),
            torch.zeros(b, device=src.device),
            target_limits(model, src, config, forced),
            None,
            forced,
        )

    def extend(self, tokens: Tensor, log_probs: Tensor, attention: Tensor | None) -> None:
        """Append the chosen ``tokens`` (b) and their log-probabilities."""
        self.prefix = torch.cat([self.prefix, tokens[:, None]], dim=1)
        self.log_prob = self.log_prob + log_probs.gather(1, tokens[:, None])[:, 0]
        if attention is not None:
            step = attention[:, None]  # b x 1 x s
            self.attention = (
                step if self.attention is None else torch.cat([self.attention, step], 1)
            )

    def select(self, index: Tensor) -> None:
        """Keep rows ``index``."""
        self.slot, self.prefix = self.slot[index], self.prefix[index]
        self.log_prob, self.limits = self.log_prob[index], self.limits[index]
        if self.attention is not None:
            self.attention = self.attention[index]
        if self.forced is not None:
            self.forced = self.forced[index]


@torch.inference_mode()
def single_path_search(
    model: Model,
    src: Tensor,
    config: SearchOptions,
    pick: Pick,
    bos_id: int,
    eos_id: int,
    between_steps: StepHook = no_pause,
    forced: Tensor | None = None,
) -> list[Hypothesis]:
    """Extend one hypothesis per source (b x s) with ``pick`` until EOS, through its target
    prefix (``forced``: b x p, see ``prefix.py``); one result per source."""
    b, lengths = src.size(0), source_lengths(model, src).tolist()
    state = model.start_decoding(src)
    live = _Paths.start(model, src, config, bos_id, forced)
    results: list[Hypothesis | None] = [None] * b
    for step in itertools.count():
        between_steps()
        log_probs, attention = step_log_probs(model, live.prefix[:, -1:], state, config.attention)
        penalise_repeats(log_probs, live.prefix, config)
        constrain(log_probs, step, live.limits, config.min_len, eos_id, live.forced)
        tokens = pick(log_probs)  # b
        live.extend(tokens, log_probs, attention)
        ended = tokens == eos_id
        if bool(ended.any()):
            for row in ended.nonzero()[:, 0].tolist():
                slot = int(live.slot[row])
                att = None if live.attention is None else live.attention[row, :, : lengths[slot]]
                ids = live.prefix[row, 1:-1].tolist()
                results[slot] = finish(ids, float(live.log_prob[row]), config.length_penalty, att)
            keep = (~ended).nonzero()[:, 0]
            if keep.numel() == 0:
                break
            state.select(keep)
            live.select(keep)
    return [r for r in results if r is not None]


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
        return torch.multinomial(logits.softmax(dim=-1), 1, generator=generator)[:, 0]

    return pick


def nucleus(logits: Tensor, top_p: float) -> Tensor:
    """Keep the smallest set of most probable tokens whose probability reaches ``top_p`` (b x V)."""
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    probs = sorted_logits.softmax(dim=-1)
    before = probs.cumsum(dim=-1) - probs  # probability of the tokens ranked above each one
    drop_sorted = before >= top_p  # the first token always stays (before = 0)
    drop = torch.empty_like(drop_sorted).scatter_(-1, order, drop_sorted)  # back to vocab order
    return logits.masked_fill(drop, float("-inf"))


def greedy_decode(
    model: Model,
    src: Tensor,
    config: SearchOptions,
    bos_id: int = BOS_ID,
    eos_id: int = EOS_ID,
    between_steps: StepHook = no_pause,
    forced: Tensor | None = None,
) -> list[list[Hypothesis]]:
    """The most probable token at each step (after the target prefix ``forced``); one
    hypothesis per source."""
    paths = single_path_search(
        model, src, config, greedy_pick, bos_id, eos_id, between_steps, forced
    )
    return [[h] for h in paths]


def sample(
    model: Model,
    src: Tensor,
    config: SearchOptions,
    bos_id: int = BOS_ID,
    eos_id: int = EOS_ID,
    between_steps: StepHook = no_pause,
    forced: Tensor | None = None,
) -> list[list[Hypothesis]]:
    """``config.n_best`` samples per source (each through its target prefix ``forced``),
    reproducible with ``config.seed``."""
    generator = None  # a seed draws on a generator of the device that samples (CUDA wants one)
    if config.seed is not None:
        generator = torch.Generator(device=src.device).manual_seed(config.seed)
    n = config.n_best
    pick = sampler(config, generator)
    sources = src.repeat_interleave(n, dim=0)
    if forced is not None:
        forced = forced.repeat_interleave(n, dim=0)
    flat = single_path_search(model, sources, config, pick, bos_id, eos_id, between_steps, forced)
    return [flat[i : i + n] for i in range(0, len(flat), n)]


def search_function(config: SearchOptions) -> Callable[..., list[list[Hypothesis]]]:
    """The search ``config`` asks for: sampling, greedy (beam 1) or beam search."""
    if config.sampling:
        return sample
    return greedy_decode if config.beam == 1 else beam_search


def decode(
    model: Model,
    src: Tensor,
    config: SearchOptions,
    bos_id: int = BOS_ID,
    eos_id: int = EOS_ID,
    between_steps: StepHook = no_pause,
    workers: int = 1,
    forced: Tensor | None = None,
) -> list[list[Hypothesis]]:
    """Translate a batch of right-padded source ids (b x s): per source, its n-best, best first.

    The model should already be in its decoding dtype (``dtype.prepare_model``).
    ``between_steps`` runs before every decoding step (see ``StepHook``); ``workers`` > 1 splits
    the batch across as many processes (``parallel.py``); ``forced`` (b x p): each source's
    target prefix (``prefix.py``).
    """
    lengths, max_len, pad_id = source_lengths(model, src), model.config.max_len, model.config.pad_id
    check_prefixes(forced, (eos_id, pad_id), max_len)
    if src.size(1) > max_len:
        if config.long_input == "split":
            pieces, owner = split_long_sources(src, lengths, max_len, pad_id)
            part = first_pieces(forced, owner)
            results = decode(model, pieces, config, bos_id, eos_id, between_steps, workers, part)
            return join_pieces(results, owner, config)
        check_lengths(lengths, max_len)
        src = src[:, :max_len]  # only padding beyond max_len
    search = search_function(config)
    if workers > 1 and src.size(0) > 1:
        return in_parallel(
            search, model, src, config, (bos_id, eos_id), workers, between_steps, forced
        )
    return search(model, src, config, bos_id, eos_id, between_steps, forced)


@torch.no_grad()
def greedy_search(
    model: Model, src: Tensor, bos_id: int, eos_id: int, max_len: int
) -> list[list[int]]:
    """Greedy ids (no BOS/EOS) for each source, at most ``max_len`` tokens: for validation BLEU."""
    config = SearchOptions(beam=1, max_len_a=0.0, max_len_b=max_len, length_penalty=0.0)
    return [hyps[0].tokens for hyps in greedy_decode(model, src, config, bos_id, eos_id)]

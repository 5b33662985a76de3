"""Search algorithms over the decoder's key/value cache: greedy, beam, sampling, constraints.

options.py     SearchOptions (per call: beam, n-best, α, λ, limits, sampling, attention) and
               LoadOptions (per load: device, dtype, compile, workers, threads, batch tokens);
               TextOptions are text/options.py's, DecodeConfig (all three) translate/config.py's
search.py      decode (the entry point), greedy decoding, sampling, greedy_search for validation
beam.py        batched beam search with GNMT length penalty and n-best lists
top_k.py       the k best tokens of each row of scores, found block by block (fast on a CPU)
hypothesis.py  Hypothesis (tokens, score, log-probability, attention), SearchTask (what one
               search is given), length limits and penalty, the step hook and Cancelled
parallel.py    single-thread workers on parts of a batch
long_input.py  sources longer than the model's positions: cut into pieces that fit
ensemble.py    several models decoding as one, by the mean of their distributions
rerank.py      reranking a beam by the backward score log P(source | hypothesis)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .beam import beam_search
    from .hypothesis import Cancelled, Hypothesis, SearchTask, StepHook, length_penalty
    from .options import LoadOptions, SearchOptions
    from .search import decode, greedy_decode, greedy_search, sample

# Each public name's module, imported on first use (PEP 562): importing one light module of
# this package (its options, its configs) imports none of the others, nor torch.
_HOMES = {
    "beam_search": ".beam",
    "Cancelled": ".hypothesis",
    "Hypothesis": ".hypothesis",
    "SearchTask": ".hypothesis",
    "StepHook": ".hypothesis",
    "length_penalty": ".hypothesis",
    "LoadOptions": ".options",
    "SearchOptions": ".options",
    "decode": ".search",
    "greedy_decode": ".search",
    "greedy_search": ".search",
    "sample": ".search",
}
__all__ = [
    "Cancelled",
    "Hypothesis",
    "LoadOptions",
    "SearchOptions",
    "SearchTask",
    "StepHook",
    "beam_search",
    "decode",
    "greedy_decode",
    "greedy_search",
    "length_penalty",
    "sample",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

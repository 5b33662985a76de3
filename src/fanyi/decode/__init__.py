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

from .beam import beam_search
from .hypothesis import Cancelled, Hypothesis, SearchTask, StepHook, length_penalty
from .options import LoadOptions, SearchOptions
from .search import decode, greedy_decode, greedy_search, sample

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

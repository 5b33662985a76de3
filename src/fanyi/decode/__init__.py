"""Translation: search over the decoder's key/value cache.

config.py      DecodeConfig: beam, n-best, length penalty, limits, sampling, dtype, workers
search.py      decode (the entry point), greedy decoding, sampling, greedy_search for validation
beam.py        batched beam search with GNMT length penalty and n-best lists
top_k.py       the k best tokens of each row of scores, found block by block (fast on a CPU)
hypothesis.py  Hypothesis (tokens, score, log-probability, attention), length limits and penalty,
               the step hook and Cancelled
dtype.py       dtype auto: the fastest of fp32, bf16 and int8 on this host, timed; prepare_model
               (the bf16, int8 and compiled variants themselves: model/inference)
parallel.py    single-thread workers on parts of a batch
long_input.py  sources longer than the model's positions: cut into pieces that fit
pending.py     texts on their way: batches in order, a failing batch decoded again in halves
ensemble.py    several models decoding as one, by the mean of their distributions
rerank.py      reranking a beam by the backward score log P(source | hypothesis)
translation.py what a translation returns: candidates, scores, attention
translator.py  Translator: text in, text out (sentences split and joined, batches by tokens)
"""

from .beam import beam_search
from .config import DecodeConfig
from .dtype import choose_dtype, prepare_model
from .hypothesis import Cancelled, Hypothesis, StepHook, length_penalty
from .search import decode, greedy_decode, greedy_search, sample

__all__ = [
    "Cancelled",
    "DecodeConfig",
    "Hypothesis",
    "StepHook",
    "beam_search",
    "choose_dtype",
    "decode",
    "greedy_decode",
    "greedy_search",
    "length_penalty",
    "prepare_model",
    "sample",
]

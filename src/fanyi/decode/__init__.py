"""Translation: search over the decoder's key/value cache.

options.py     SearchOptions (per call: beam, n-best, α, λ, limits, sampling, attention) and
               LoadOptions (per load: device, dtype, compile, workers, threads, batch tokens)
config.py      DecodeConfig: a model's saved defaults and the flags, both halves in one
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
engine.py      the Engine protocol (decode, log_likelihoods) and the registry of engines
native.py      fanyi's engine: load, choose the dtype (timed), decode in batches of tokens
source_text.py what a model reads for a text: normalised, split, tagged, in pieces that fit
plan.py        the searches a batch needs: per target language, reranked
model_names.py a model directory's path, or a bundled model's name
translator.py  Translator: text in, text out over an engine (sentences split and joined)
"""

from .beam import beam_search
from .config import DecodeConfig
from .dtype import choose_dtype, prepare_model
from .hypothesis import Cancelled, Hypothesis, StepHook, length_penalty
from .options import LoadOptions, SearchOptions
from .search import decode, greedy_decode, greedy_search, sample

__all__ = [
    "Cancelled",
    "DecodeConfig",
    "Hypothesis",
    "LoadOptions",
    "SearchOptions",
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

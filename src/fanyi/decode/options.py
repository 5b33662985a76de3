"""The two halves of decoding's options, split as CTranslate2 splits ``Translator(...)`` from
``translate_batch(...)``: what is fixed when a model is loaded (:class:`LoadOptions`) and what
each call, or each HTTP request, may choose (:class:`SearchOptions`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

# The most a user may ask for: each bounds memory (beams and samples are rows of every step,
# workers are processes); lengths beyond a model's positions are capped by them anyway.
MAX_BEAM = 64
MAX_WORKERS = 64
MAX_LENGTH = 1_000_000
MAX_BATCH_TOKENS = 1 << 17  # padded source tokens a batch may hold (times beam: its rows' tokens)
MAX_THREADS = 1024
# Reals a search's float32 scores stay numbers under: a factor (repetition_penalty, temperature)
# far from 1 rounds to 0 or ∞ there (1e-300 does), and 0 · −∞ is NaN; an |α| beyond MAX_ALPHA
# overflows GNMT's ((5 + |Y|) / 6)^α at MAX_LENGTH tokens. Both stay far inside what is safe.
MAX_FACTOR = 1e6
MAX_ALPHA = 20.0

Dtype = Literal["fp32", "bf16", "int8"]
DtypeChoice = Literal["auto", "fp32", "bf16", "int8"]
LongInput = Literal["error", "split"]
DTYPES: list[Dtype] = ["fp32", "bf16", "int8"]


@dataclass
class SearchOptions:
    """How to search for translations: per call, per request.

    Output length: at most ``max_len_a · |src| + max_len_b`` tokens (capped by the model's
    ``max_len``); EOS is forced once that is reached and forbidden before ``min_len`` tokens.
    Beam scores are GNMT's: log P(Y|X) / lp(Y), lp(Y) = ((5 + |Y|) / 6)^α, |Y| counting EOS.
    """

    beam: int = 5  # 1 = greedy
    n_best: int = 1  # hypotheses returned per source (≤ beam; samples per source when sampling)
    length_penalty: float = 0.6  # GNMT α; 0 ranks by log-probability alone
    # α for translations into a language ({zh: 4}), over length_penalty (fanyi tune --per-target)
    length_penalty_by_target: dict[str, float] = field(default_factory=dict)
    # λ: rank the beam's hypotheses by score + λ·log P(source | hypothesis) per source token, the
    # model translating back (bidirectional models; decode/rerank.py); 0 = the beam's own order.
    # Beam search only: samples are not reranked
    rerank_backward: float = 0.0
    # λ for translations into a language ({zh: 1}), over rerank_backward (fanyi tune --per-target)
    rerank_backward_by_target: dict[str, float] = field(default_factory=dict)
    max_len_a: float = 1.5
    max_len_b: int = 10
    min_len: int = 0
    # a translation holds only characters of its language's script and the shared ones: no Han
    # character or CJK punctuation in English (the pieces holding one are suppressed); a target
    # prefix's own pieces are always allowed
    target_script_only: bool = True
    suppress_ids: list[int] = field(default_factory=list)  # target ids never generated
    # the softmax over the allowed pieces only (those the two keys above leave): renormalised
    # scores, and the output projection computes only their rows (decode/allowed.py)
    allowed_softmax: bool = False
    # β: the log-probability each piece in the other language's script loses (lang.in_other_script:
    # a Latin letter in Chinese, an English word left untranslated); 0 = off. Scores include it
    script_penalty: float = 0.0
    # β for translations into a language ({zh: 1}), over script_penalty (fanyi tune)
    script_penalty_by_target: dict[str, float] = field(default_factory=dict)
    penalized_ids: list[int] = field(default_factory=list)  # more target ids losing β each
    sampling: bool = False  # draw tokens instead of searching (beam is then ignored)
    temperature: float = 1.0
    top_k: int = 0  # sample among the k most probable tokens; 0 = all
    top_p: float = 1.0  # nucleus: smallest set of tokens with probability ≥ top_p
    seed: int | None = None  # sampling seed; None = torch's global generator
    repetition_penalty: float = 1.0  # CTRL's: a token already produced, log-prob × this; 1 = off
    no_repeat_ngram_size: int = 0  # forbid repeating any n-gram of this size; 0 = off
    # forbid a piece that makes a run of this many of one character or one piece in a row
    # that the source does not hold ("Professssor"; decode/repetition.py); 0 = off
    max_repeat_run: int = 0
    # GNMT α of a search held to constraints (decode/constraints.py): one that ranks long
    # detours high lets a phrase be forced in where it does not belong (chosen on dev)
    constrained_length_penalty: float = 0.6
    # beam of a search held to constraints (rows per source; 0 = ``beam``, never under n_best):
    # a held search runs until k of its hypotheses hold every phrase, so a narrower one is
    # quicker; on real text 3 kept the BLEU of 5, on short phrases it lost (docs/decoding.md)
    constrained_beam: int = 0
    long_input: LongInput = "split"  # a sentence longer than the model's max_len: split, or raise
    attention: bool = False  # keep each hypothesis's cross-attention (last layer, head mean)

    def __post_init__(self) -> None:
        for name, low, high in (
            ("beam", 1, MAX_BEAM),
            ("n_best", 1, MAX_BEAM),
            ("max_len_b", 0, MAX_LENGTH),
            ("min_len", 0, MAX_LENGTH),
            ("no_repeat_ngram_size", 0, MAX_LENGTH),
            ("max_repeat_run", 0, MAX_LENGTH),
            ("constrained_beam", 0, MAX_BEAM),
        ):
            within(name, getattr(self, name), low, high)
        if self.max_repeat_run == 1:
            raise ValueError("max_repeat_run must be 0 (off) or at least 2, not 1")
        if not 0 <= self.max_len_a <= MAX_LENGTH:  # False for NaN too
            raise ValueError(f"max_len_a must be between 0 and {MAX_LENGTH}, not {self.max_len_a}")
        if not self.sampling and self.n_best > self.beam:
            raise ValueError(f"n_best={self.n_best} exceeds beam={self.beam}")
        if self.seed is not None and not (_is_id(self.seed) and self.seed < 2**63):
            raise ValueError(f"seed must be an integer between 0 and {2**63 - 1}, not {self.seed}")
        self._check_numbers()

    def _check_numbers(self) -> None:
        """Every real number finite and in its range, with the range in the error."""
        if not (_is_alpha(self.length_penalty) and 0 <= self.rerank_backward < math.inf):
            raise ValueError(
                f"length_penalty must be a finite number within ±{MAX_ALPHA:g} and "
                f"rerank_backward a finite one ≥ 0, not {self.length_penalty} and "
                f"{self.rerank_backward}"
            )
        if not _is_alpha(self.constrained_length_penalty):
            raise ValueError(
                f"constrained_length_penalty must be finite, within ±{MAX_ALPHA:g}, not "
                f"{self.constrained_length_penalty}"
            )
        self._check_sampling_and_repeats()
        alphas, weights = self.length_penalty_by_target, self.rerank_backward_by_target
        if not all(_is_alpha(a) for a in alphas.values()):
            raise ValueError(
                f"length_penalty_by_target needs numbers within ±{MAX_ALPHA:g}: {alphas}"
            )
        if not all(_is_number(w) and w >= 0 for w in weights.values()):
            raise ValueError(f"rerank_backward_by_target needs numbers ≥ 0: {weights}")
        if not all(_is_id(i) for i in [*self.suppress_ids, *self.penalized_ids]):
            raise ValueError(
                "suppress_ids and penalized_ids need token ids (integers ≥ 0): "
                f"{self.suppress_ids}, {self.penalized_ids}"
            )
        betas = [self.script_penalty, *self.script_penalty_by_target.values()]
        if not all(_is_number(b) and b >= 0 for b in betas):
            raise ValueError(f"script_penalty (and by target) must be finite and ≥ 0: {betas}")
        if self.long_input not in ("error", "split"):
            raise ValueError(f"long_input must be 'error' or 'split', not {self.long_input!r}")

    def _check_sampling_and_repeats(self) -> None:
        """Sampling's numbers in their ranges; the temperature and the repetition penalty, which
        scale log-probabilities, from 1 / MAX_FACTOR to MAX_FACTOR."""
        if not (_is_factor(self.temperature) and 0 < self.top_p <= 1 and self.top_k >= 0):
            raise ValueError(
                f"need a finite temperature > 0 (from {1 / MAX_FACTOR:g} to {MAX_FACTOR:g}), "
                "0 < top_p ≤ 1 and top_k ≥ 0"
            )
        if not _is_factor(self.repetition_penalty):
            raise ValueError(
                f"repetition_penalty must be finite and > 0, from {1 / MAX_FACTOR:g} to "
                f"{MAX_FACTOR:g}, not {self.repetition_penalty}"
            )

    @property
    def per_target(self) -> bool:
        """Whether translations into different languages are searched apart (``for_target``)."""
        return bool(
            self.length_penalty_by_target
            or self.rerank_backward_by_target
            or self.target_script_only
            or self.script_penalty_by_target
            or self.script_penalty > 0
        )

    @property
    def reranks(self) -> bool:
        """Whether any translation is reranked by the backward score."""
        return self.rerank_backward > 0 or any(self.rerank_backward_by_target.values())


# One line of help for each search option: its flag's and its HTTP field's
SEARCH_HELP = {
    "beam": "beam size (1 = greedy)",
    "n_best": "candidates per one-sentence text, best first (≤ beam)",
    "length_penalty": "GNMT α (into every language unless by target)",
    "length_penalty_by_target": "α per target language ({zh: 1.0})",
    "rerank_backward": "λ ≥ 0 of the backward score log P(source | translation); 0 = off",
    "rerank_backward_by_target": "λ per target language",
    "max_len_a": "output tokens at most a·|src| + b",
    "max_len_b": "output tokens at most a·|src| + b",
    "min_len": "output tokens at least",
    "target_script_only": "only the target language's script: no Han characters in English",
    "suppress_ids": "target ids never generated",
    "allowed_softmax": "softmax over the pieces not suppressed only: faster into English",
    "script_penalty": "β ≥ 0 each piece in the other script loses (Latin in Chinese)",
    "script_penalty_by_target": "β per target language",
    "penalized_ids": "more target ids that lose β each",
    "sampling": "draw tokens instead of searching",
    "temperature": "sampling temperature, > 0",
    "top_k": "sample among the k likeliest; 0 = all",
    "top_p": "nucleus sampling, 0 < top_p ≤ 1",
    "seed": "sampling seed",
    "repetition_penalty": "a token already produced: its log-probability × this; 1 = off",
    "no_repeat_ngram_size": "no n-gram of this size twice; 0 = off",
    "max_repeat_run": "no run of this many of one character or piece the source lacks; 0 = off",
    "constrained_length_penalty": "GNMT α of a search held to constraints",
    "constrained_beam": "beam of a search held to constraints; 0 = beam",
    "long_input": "a sentence longer than the model reads: split, or error",
    "attention": "include pieces and cross-attention (last layer, mean of heads)",
}


@dataclass
class LoadOptions:
    """What is fixed when a model is loaded: where and how fast it decodes."""

    device: str = "cpu"  # cpu, cuda, cuda:N or auto
    # auto: the fastest on this host of fp32 and the allowed others, timed (engines/dtype.py);
    # bf16: weights converted (not autocast); int8: dynamic quantisation of the linear maps
    dtype: DtypeChoice = "auto"
    auto_dtypes: list[Dtype] = field(default_factory=lambda: list(DTYPES))
    # run the decoder's steps compiled to C++ (model/inference/compiled.py; fp32 and bf16): 1.1-1.4x
    # faster decoding after a compile of 15-25 s per search and process; needs a C++ compiler
    compile: bool = False
    workers: int = 1  # split each batch across this many single-thread worker processes
    threads: int = 0  # intra-op threads; 0 = the caller's (the commands: every core)
    batch_tokens: int = 4096  # padded source tokens per batch

    def __post_init__(self) -> None:
        within("workers", self.workers, 1, MAX_WORKERS)
        within("threads", self.threads, 0, MAX_THREADS)
        within("batch_tokens", self.batch_tokens, 1, MAX_BATCH_TOKENS)
        if self.dtype not in ("auto", *DTYPES):
            raise ValueError(f"dtype must be auto, fp32, bf16 or int8, not {self.dtype!r}")
        if self.compile and self.dtype == "int8":
            raise ValueError("compile runs fp32 or bf16 models, not int8")
        if not set(self.auto_dtypes) <= set(DTYPES):
            raise ValueError(f"auto_dtypes must name fp32, bf16 or int8: {self.auto_dtypes}")


def within(name: str, value: int, low: int, high: int) -> None:
    """Raise, naming ``name`` and its bounds, unless ``value`` is an integer with
    ``low ≤ value ≤ high``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, not {value}")


def for_target(
    options: SearchOptions, lang: str, foreign: Sequence[int] = (), other: Sequence[int] = ()
) -> SearchOptions:
    """``options`` for translations into ``lang``: its α, λ and β from the ``…_by_target`` maps,
    with ``target_script_only`` the ids of the pieces ``foreign`` to its script suppressed, and
    with a β the ids of the pieces in the ``other`` script penalised."""
    foreign = foreign if options.target_script_only else ()
    beta = options.script_penalty_by_target.get(lang, options.script_penalty)
    return dataclasses.replace(
        options,
        length_penalty=options.length_penalty_by_target.get(lang, options.length_penalty),
        length_penalty_by_target={},
        rerank_backward=options.rerank_backward_by_target.get(lang, options.rerank_backward),
        rerank_backward_by_target={},
        target_script_only=False,
        suppress_ids=[*options.suppress_ids, *foreign],
        script_penalty=beta,
        script_penalty_by_target={},
        penalized_ids=[*options.penalized_ids, *other] if beta else options.penalized_ids,
    )


def _is_id(value: object) -> bool:
    """An int ≥ 0 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_alpha(value: object) -> bool:
    """A finite number within ±MAX_ALPHA (not a bool)."""
    return _is_number(value) and abs(value) <= MAX_ALPHA  # type: ignore[arg-type]


def _is_factor(value: object) -> bool:
    """A number from 1 / MAX_FACTOR to MAX_FACTOR (not a bool)."""
    return _is_number(value) and 1 / MAX_FACTOR <= value <= MAX_FACTOR  # type: ignore[operator]


def _is_number(value: object) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)

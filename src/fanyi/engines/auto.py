"""``--engine auto``: CTranslate2 searches where it can, fanyi's own search where only it can.

Where ``ctranslate2`` is installed and the model is one model (not an ensemble) decoding in
int8 or fp32, a source's free search runs in CTranslate2, on the model's export made once and
kept in the cache (``ct2_cache.py``). fanyi's engine, loaded on first need in the same dtype,
takes what CTranslate2 cannot do:

- a source held to phrases (names, numbers, a glossary, a user's constraints): lexically
  constrained beam search (``decode/held_batch.py``);
- a source whose CTranslate2 translation holds a run of ``max_repeat_run`` repeats its source
  does not ("Professssssor"): searched again with the guard, which reads each piece's
  characters at every step (``translate_batch`` takes no per-step rule);
- a source whose CTranslate2 translation runs past its own length limit (CTranslate2 takes one
  limit a call; sources share a call by their limits rounded up to a multiple of 16);
- sampling, so that a seed draws the same samples whichever engine is installed.

Everywhere else the engine is CTranslate2's: its translations are those of ``--engine
ctranslate2`` on the same export, the same alone and in any batch. Without ``ctranslate2``,
for an ensemble, bf16 or compiled steps, ``auto`` is fanyi's engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..decode.constraints import Spellings
from ..decode.hypothesis import Hypothesis, StepHook, no_pause
from ..decode.options import Dtype, LoadOptions, SearchOptions
from ..text.runs import degenerate
from .ct2_cache import cached_export
from .ctranslate2 import CTranslate2Engine

if TYPE_CHECKING:
    from torch import Tensor

    from ..sections import Checkpoint
    from .native import NativeEngine

QUANTIZATION = {"int8": "int8", "fp32": "float32"}  # the dtypes CTranslate2 decodes for auto
# sources whose length limits round up to one multiple of this share a translate_batch call;
# one whose translation runs past its own limit is searched again by fanyi's engine
LIMIT_STEP = 16


class AutoEngine:
    """CTranslate2 (``fast``) for free searches; fanyi's engine (``exact``, loaded by
    ``load_exact`` on first need) for held searches, guarded runs and sampling."""

    name = "auto"
    lexical_constraints = True  # held sources go to fanyi's engine

    def __init__(self, fast: CTranslate2Engine, load_exact: Callable[[], NativeEngine]) -> None:
        self.fast, self._load_exact = fast, load_exact
        self._exact: NativeEngine | None = None
        self.checkpoint: Checkpoint = fast.checkpoint
        self.options: LoadOptions = fast.options

    @property
    def exact(self) -> NativeEngine:
        """fanyi's engine on the same model and dtype, loaded the first time it is needed."""
        if self._exact is None:
            self._exact = self._load_exact()
        return self._exact

    def decode(
        self,
        sources: list[list[int]],
        options: SearchOptions,
        between_steps: StepHook = no_pause,
        prefixes: list[list[int]] | None = None,
        constraints: list[list[Spellings]] | None = None,
    ) -> list[list[Hypothesis]]:
        """Each source's hypotheses as the engine for it finds them (the module's docstring)."""
        if options.sampling:
            return self.exact.decode(sources, options, between_steps, prefixes, constraints)
        held = constraints or [[] for _ in sources]
        wanted = prefixes or [[] for _ in sources]
        free = [i for i in range(len(sources)) if not held[i]]
        results: list[list[Hypothesis]] = [[] for _ in sources]
        found = self.fast.decode(
            [sources[i] for i in free], options, between_steps, _at(wanted, free)
        )
        for i, hypotheses in zip(free, found, strict=True):
            results[i] = hypotheses
        again = [
            i
            for i in range(len(sources))
            if held[i] or self._redone(sources[i], results[i], options, len(wanted[i]))
        ]
        if again:
            part = [sources[i] for i in again]
            exact = self.exact.decode(
                part, options, between_steps, _at(wanted, again), _at(held, again)
            )
            for i, hypotheses in zip(again, exact, strict=True):
                results[i] = hypotheses
        return results

    def _redone(
        self, source: list[int], found: list[Hypothesis], options: SearchOptions, prefix: int
    ) -> bool:
        """Whether the best of ``found`` is longer than ``source``'s own length limit (the
        batch's limit is rounded up: ``LIMIT_STEP``), or, with the guard against runs on,
        holds a run of its length that ``source`` does not."""
        if not found:
            return False
        if len(found[0].tokens) > self.fast.limit(len(source), options, prefix):
            return True
        if not options.max_repeat_run:
            return False
        output, read = (
            self.fast.tgt_vocab.decode(found[0].tokens),
            self.fast.src_vocab.decode(source),
        )
        return degenerate(output, read, options.max_repeat_run)

    def log_likelihoods(
        self,
        sources: list[list[int]],
        targets: list[list[int]],
        between_batches: StepHook = no_pause,
    ) -> list[float]:
        """log P(target, EOS | source) of each pair, by CTranslate2's ``score_batch``."""
        return self.fast.log_likelihoods(sources, targets, between_batches)

    def cross_attention(self, source: list[int], target: list[int]) -> Tensor:
        """Every layer's and head's cross-attention, from fanyi's engine."""
        return self.exact.cross_attention(source, target)

    def with_dtype(self, dtype: Dtype) -> AutoEngine | CTranslate2Engine:
        """Itself in its own dtype; another is refused as CTranslate2's engine refuses it
        (compare dtypes on ``--engine fanyi``)."""
        return self if dtype == self.options.dtype else self.fast.with_dtype(dtype)  # refused


def _at(values: list, rows: list[int]) -> list:
    return [values[i] for i in rows]


def load_auto(
    path: Path,
    options: LoadOptions,
    search: SearchOptions,
    load_native: Callable[[Path, LoadOptions, SearchOptions], NativeEngine],
) -> AutoEngine | NativeEngine:
    """``auto`` for the model of ``path``: an :class:`AutoEngine` where CTranslate2 is
    installed and can decode it in ``options``' dtype (``auto``: int8), else fanyi's engine
    (``load_native``)."""
    from ..ensemble_dir import ensemble_members
    from ..sections import read_config

    dtype = "int8" if options.dtype == "auto" else options.dtype
    if options.compile or dtype not in QUANTIZATION or ensemble_members(path) is not None:
        return load_native(path, options, search)
    try:
        import ctranslate2  # optional
    except ImportError:
        return load_native(path, options, search)
    checkpoint = read_config(path)
    exported = cached_export(checkpoint, QUANTIZATION[dtype])
    fixed = dataclasses.replace(options, dtype=dtype)
    if search.sampling and search.seed is not None:
        ctranslate2.set_random_seed(search.seed)
    fast = CTranslate2Engine(exported, checkpoint, fixed, LIMIT_STEP)
    return AutoEngine(fast, lambda: load_native(path, fixed, search))

"""fanyi's own engine: the model (or ensemble) of a model directory, searched over its cache.

Loading is two explicit steps: read the fp32 weights (:meth:`NativeEngine.load`), then bring
them into the decoding dtype, for ``dtype: auto`` the one this host decodes fastest, timed once
and cached (``dtype.py``). The constructor takes a model already chosen for. One model stored as
int8 rows that decodes in int8 on a CPU (the bundled models, as a rule) skips the fp32 weights:
its linear maps are made from the rows as stored (``model_dir.load_int8_model``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import torch
from torch import Tensor

from ..data.batching import pad_rows, token_batches, widened
from ..decode import ensemble
from ..decode.constraints import Spellings
from ..decode.held_batch import constrained_searches
from ..decode.hypothesis import Hypothesis, SearchTask, StepHook, no_pause
from ..decode.options import Dtype, LoadOptions, SearchOptions
from ..decode.prefix import forced_tokens
from ..decode.rerank import log_likelihoods
from ..decode.run_tables import RunTables
from ..decode.search import search_task
from ..device import resolve_device
from ..ensemble_dir import ensemble_members
from ..model import Model
from ..model_dir import load_int8_model, read_checkpoint, stores_int8_rows
from ..sections import Checkpoint
from .dtype import choose_dtype, prepare_model, settled_dtype, weights_key


class NativeEngine:
    """A fanyi model (or ensemble) decoding in ``options.dtype`` (never ``auto`` here)."""

    name = "fanyi"
    lexical_constraints = True  # decode() holds translations to target phrases

    def __init__(
        self, model: Model, checkpoint: Checkpoint, options: LoadOptions, prepared: bool = False
    ) -> None:
        """``model`` in fp32, brought into ``options.dtype`` here; or, ``prepared``, already in
        it (as ``load_int8_model`` reads it)."""
        if options.dtype == "auto":
            raise ValueError("choose the dtype first: NativeEngine.load, or dtype.choose_dtype")
        self.checkpoint = checkpoint
        self.options = options
        self.device = next(model.parameters()).device
        self.model = model if prepared else prepare_model(model, options.dtype, options.compile)
        self._runs: RunTables | None = None  # read from the vocabularies when first needed

    @classmethod
    def load(cls, path: Path, options: LoadOptions, search: SearchOptions) -> NativeEngine:
        """Read the model of ``path`` onto ``options.device``, choose its dtype (``auto``: timed
        with ``search``'s beam), and bring it into that dtype."""
        device = resolve_device(options.device)
        if (stored := _stored_int8(path, options, device)) is not None:
            return stored
        model, checkpoint = ensemble.load(path, device=device)
        return cls(model, checkpoint, chosen_dtype(model, checkpoint, options, search))

    def with_dtype(self, dtype: Dtype) -> NativeEngine:
        """This engine's model decoding in ``dtype`` (itself, where it already does), converted
        from the fp32 model it holds."""
        if dtype == self.options.dtype:
            return self
        if self.options.dtype != "fp32":
            raise ValueError(
                f"a dtype is made from fp32 weights: this engine holds {self.options.dtype}"
            )
        options = dataclasses.replace(self.options, dtype=dtype)
        return NativeEngine(self.model, self.checkpoint, options)

    def decode(
        self,
        sources: list[list[int]],
        options: SearchOptions,
        between_steps: StepHook = no_pause,
        prefixes: list[list[int]] | None = None,
        constraints: list[list[Spellings]] | None = None,
    ) -> list[list[Hypothesis]]:
        """Each source's hypotheses, best first, through its target prefix, in batches of at most
        ``batch_tokens`` padded source tokens, shortest first; the sources with ``constraints``
        (target phrases) in batches of their own, each held to its phrases (``held_batch.py``)."""
        held = constraints or [[] for _ in sources]
        results: list[list[Hypothesis]] = [[] for _ in sources]
        free = [i for i in range(len(sources)) if not held[i]]
        for batch, task in self._tasks(sources, free, options, between_steps, prefixes):
            found = search_task(self.model, task, self.options.workers)
            for i, hypotheses in zip(batch, found, strict=True):
                results[i] = hypotheses
        bound = [i for i in range(len(sources)) if held[i]]  # searched together, held
        for batch, task in self._tasks(sources, bound, options, between_steps, prefixes):
            found = constrained_searches(self.model, task, [held[i] for i in batch])
            for i, hypotheses in zip(batch, found, strict=True):
                results[i] = hypotheses
        for source, hypotheses in zip(sources, results, strict=True):
            for h in hypotheses:  # the attention over the source's own positions, not padding
                if h.attention is not None:
                    h.attention = h.attention[..., : len(source)]
        return results

    def _tasks(
        self,
        sources: list[list[int]],
        picked: list[int],
        options: SearchOptions,
        between_steps: StepHook,
        prefixes: list[list[int]] | None,
    ) -> Iterator[tuple[list[int], SearchTask]]:
        """The sources ``picked`` in batches of at most ``batch_tokens`` padded source tokens,
        shortest first, each batch's indices with its search."""
        c, lengths = self.checkpoint.model, [len(s) for s in sources]
        order = sorted(picked, key=lambda i: lengths[i])
        for batch in token_batches(order, lengths, self.options.batch_tokens):
            src = pad_rows([sources[i] for i in batch], c.pad_id)
            src = widened(src, c.pad_id).to(self.device)  # the same alone and in any batch
            forced = forced_tokens(prefixes and [prefixes[i] for i in batch], self.device)
            task = SearchTask(src, options, c.bos_id, c.eos_id, between_steps, forced)
            yield batch, self._with_runs(task)

    def _with_runs(self, task: SearchTask) -> SearchTask:
        """``task`` with the vocabularies' runs where its options guard against runs."""
        if not task.options.max_repeat_run:
            return task
        if self._runs is None:
            sizes = self.checkpoint.model.src_vocab_size, self.checkpoint.model.tgt_vocab_size
            self._runs = RunTables.of_vocabularies(*self.checkpoint.vocabularies(), sizes)
        return dataclasses.replace(task, runs=self._runs)

    def log_likelihoods(
        self,
        sources: list[list[int]],
        targets: list[list[int]],
        between_batches: StepHook = no_pause,
    ) -> list[float]:
        """log P(target, EOS | source) of each pair of id lists (sources end in EOS)."""
        batch_tokens = self.options.batch_tokens
        return log_likelihoods(self.model, sources, targets, batch_tokens, between_batches)

    def cross_attention(self, source: list[int], target: list[int]) -> Tensor:
        """Every layer's and head's cross-attention of ``target`` (BOS first) over ``source``:
        N_dec x h x len(target) x len(source), fp32 on the host."""
        members = self.model.members()
        if len(members) > 1:
            raise ValueError("an ensemble has no single attention map: give one member's directory")
        with torch.no_grad():
            memory = members[0].encode(torch.tensor([source], device=self.device))
            _, weights = members[0].decode(
                torch.tensor([target], device=self.device), memory, None, need_weights=True
            )
        return torch.stack([w[0].float() for w in weights]).cpu()


def chosen_dtype(
    model: Model, checkpoint: Checkpoint, options: LoadOptions, search: SearchOptions
) -> LoadOptions:
    """``options`` with ``dtype: auto`` replaced by the dtype this host decodes ``model`` fastest
    in (timed with ``search``'s beam, cached under the weights' key)."""
    dtype = choose_dtype(model, options, search, weights_key(checkpoint))
    return dataclasses.replace(options, dtype=dtype)


def _stored_int8(path: Path, options: LoadOptions, device: torch.device) -> NativeEngine | None:
    """The engine of ``path`` made from its int8 rows as stored, where it is one model stored
    so that decodes in int8 (given, or ``auto``'s choice without timing) on a CPU; else None."""
    if device.type != "cpu" or options.compile or ensemble_members(path) is not None:
        return None
    checkpoint = read_checkpoint(path)
    if not stores_int8_rows(checkpoint.path):
        return None
    if settled_dtype(options, device, weights_key(checkpoint)) != "int8":
        return None
    int8 = dataclasses.replace(options, dtype="int8")
    return NativeEngine(load_int8_model(checkpoint), checkpoint, int8, prepared=True)

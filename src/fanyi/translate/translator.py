"""Translator: text in, text out, over an engine (``engines/``). Each text (a :class:`Request`)
is normalised, read by the text transforms, split and tagged (``source_text.py``), its sentences
batched by tokens, searched (``plan.py``) and joined again: one text in, one translation out. A
piece that fails fails alone (``pending.py``)."""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

from ..decode.hypothesis import StepHook, no_pause
from ..decode.options import SearchOptions
from ..engines.registry import Engine, load_engine
from ..text.options import TextOptions
from .attention import attention_maps
from .config import LOAD_KEYS, DecodeConfig, decode_defaults
from .model_names import BUNDLED, resolve_model_dir
from .pending import in_batches, in_order
from .plan import Searcher, decode_pieces
from .request import Request, requests
from .source_text import SourceText
from .translation import AttentionMaps, Translation, assemble, unplaced_terms


class Translator:
    """A loaded model ready to translate: ``Translator.load(dir).translate(["你好。"])``."""

    def __init__(self, engine: Engine, options: SearchOptions | None = None, text=None) -> None:
        self.engine, self.checkpoint = engine, engine.checkpoint
        self.text = SourceText(engine.checkpoint)
        self.options = options or SearchOptions()  # each call's defaults: the search
        self.text_options: TextOptions = text or TextOptions()  # and the text transforms
        self.check(self.options)

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        config: DecodeConfig | None = None,
        engine: str = "fanyi",
        device: object = "cpu",
        batch_tokens: int = 4096,
        **options: object,
    ) -> Translator:
        """A model or ensemble directory (default: the bundled model) in ``engine`` on ``device``
        by ``config`` (default: the model's own) with ``options`` (DecodeConfig keys) over it."""
        path = resolve_model_dir(model_dir)
        config = (config or decode_defaults(path)).override(options)
        load = dataclasses.replace(config.load, device=str(device), batch_tokens=batch_tokens)
        return cls(load_engine(engine, path, load, config.search), config.search, config.text)

    @property
    def targets(self) -> list[str]:
        """The languages this model translates into."""
        return self.text.languages.targets

    def translate(self, texts: Sequence[str | Request], *args: Any, **kw: Any) -> list[Translation]:
        """One :class:`Translation` per text, in order; a failed text's is empty, with its
        ``error``. The arguments are :meth:`stream`'s."""
        return list(self.stream(texts, *args, **kw))

    @overload
    def __call__(self, texts: str, to: str | None = None, **changes: Any) -> str: ...
    @overload
    def __call__(
        self, texts: Sequence[str], to: str | None = None, **changes: Any
    ) -> list[str]: ...
    def __call__(
        self, texts: str | Sequence[str], to: str | None = None, **changes: Any
    ) -> str | list[str]:
        """As a pipeline: the best translation of one text, or of each (failed: "", a warning)."""
        results = self.translate([texts] if isinstance(texts, str) else texts, to, **changes)
        for i, result in enumerate(results):
            if result.error is not None:
                warnings.warn(f"text {i}: {result.error}", stacklevel=2)
            if result.unplaced:
                warnings.warn(f"text {i}: {unplaced_terms(result.unplaced)}", stacklevel=2)
        best = [result.text for result in results]
        return best[0] if isinstance(texts, str) else best

    def stream(
        self,
        texts: Sequence[str | Request],
        to: str | None = None,
        options: SearchOptions | None = None,
        between_steps: StepHook = no_pause,
        target_prefix: str | Sequence[str | None] | None = None,
        constraints: Sequence[Sequence[str] | None] | None = None,
        text_options: TextOptions | None = None,
        source_lang: str | None = None,
        **changes: Any,
    ) -> Iterator[Translation]:
        """Each text's :class:`Translation` as soon as it and every text before it are done.
        ``texts``: strings or :class:`Request` s; ``to``, ``source_lang`` (any code: ``zh-TW``):
        detected per text by default; ``options``, ``text_options`` (default the translator's)
        with ``changes`` over them; ``between_steps`` may wait, or raise ``Cancelled``;
        ``target_prefix`` (one, or one per text) and ``constraints`` (per text): ``requests``."""
        work = requests(texts, to, target_prefix, constraints, source_lang)
        search, text = self.chosen(options, changes, text_options)
        if search.sampling and any(request.constraints for request in work):
            raise ValueError("constraints need beam search (or greedy decoding), not sampling")
        hold = self.engine.lexical_constraints and not search.sampling
        pending = [self.text.prepare(r, text, search.long_input, hold) for r in work]
        batches = in_batches(pending, search.per_target, self.engine.options.batch_tokens)
        searcher = Searcher(self.engine, self.text, search, between_steps)
        for done in in_order(pending, batches, functools.partial(decode_pieces, searcher)):
            result = assemble(done, self.text.src_vocab, self.text.tgt_vocab)
            result.unplaced = done.unplaced(result.text) if result.error is None else []
            yield result

    def chosen(
        self, options: SearchOptions | None, changes: dict, text: TextOptions | None = None
    ) -> tuple[SearchOptions, TextOptions]:
        """The options of a call: ``options`` and ``text`` (default the translator's) with
        ``changes`` over them, as the flags and HTTP's fields are (``DecodeConfig.override``)."""
        if fixed := sorted(set(changes) & set(LOAD_KEYS)):
            raise ValueError(f"{', '.join(fixed)}: fixed when the model is loaded")
        base = DecodeConfig(search=options or self.options, text=text or self.text_options)
        config = base.override(changes)
        self.check(config.search)
        return config.search, config.text

    def token_counts(
        self, texts: list[str], to: str | None = None, text: Any = None, source_lang: Any = None
    ) -> list[int]:
        """The source tokens the model reads for each text (by TextOptions ``text``), before
        beam: what decoding it costs (none for a text in the language asked already)."""
        long, read = self.options.long_input, text or self.text_options
        ways = [(t, self.text.languages.direction(t, to, source_lang)) for t in texts]
        sizes = ([] if w.unchanged else self.text.pieces(t, w.to, read, long) for t, w in ways)
        return [sum(map(len, p)) for p in sizes]

    def cross_attention(self, text: str, to: str | None = None) -> AttentionMaps:
        """Translate ``text`` as one sequence, then every layer's and head's attention over it."""
        options = dataclasses.replace(self.options, long_input="error")
        (translation,) = self.translate([text], to, options, split_sentences=False)
        return attention_maps(translation, text, self.text, self.engine, self.text_options)

    def check(self, options: SearchOptions) -> None:
        """Refuse ``options`` this model cannot decode by."""
        self.text.target.check(options)


__all__ = ["BUNDLED", "Request", "Translator", "resolve_model_dir"]

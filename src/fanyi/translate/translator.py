"""Translator: text in, text out, over an engine (``engine.py``). Texts are normalised, split
and tagged (``source_text.py``), their sentences batched by tokens, searched (``plan.py``) and
joined again: one text in, one translation out. A piece that fails fails alone (``pending.py``)."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

from ..data.batching import token_batches
from ..decode.config import DecodeConfig, decode_defaults, with_options
from ..decode.hypothesis import StepHook, no_pause
from ..decode.options import SearchOptions
from ..engines.registry import Engine, load_engine
from .model_names import BUNDLED, resolve_model_dir
from .pending import Piece, in_order, isolated
from .plan import search_held
from .source_text import Held, SourceText
from .translation import AttentionMaps, Translation, assemble


class Translator:
    """A loaded model ready to translate: ``Translator.load(dir).translate(["你好。"])``."""

    def __init__(self, engine: Engine, options: SearchOptions | None = None) -> None:
        self.engine, self.checkpoint = engine, engine.checkpoint
        self.text = SourceText(engine.checkpoint)
        self.options = options or SearchOptions()  # each call's defaults
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
        """Load a model or ensemble directory (default: the bundled model) into ``engine`` on
        ``device`` (cpu, cuda, cuda:N, auto) by ``config`` (default: the model's own) and
        ``options`` (DecodeConfig keys, as values or flags' strings) over it."""
        path = resolve_model_dir(model_dir)
        config = with_options(config or decode_defaults(path), options)
        load, search = config.load_options(str(device), 0, batch_tokens), config.search()
        return cls(load_engine(engine, path, load, search), search)

    @property
    def targets(self) -> list[str]:
        """The languages this model translates into."""
        return self.text.languages.targets

    def translate(
        self,
        texts: Sequence[str],
        to: str | None = None,
        options: SearchOptions | None = None,
        between_steps: StepHook = no_pause,
        target_prefix: str | Sequence[str | None] | None = None,
        constraints: Sequence[Sequence[str] | None] | None = None,
        **changes: Any,
    ) -> list[Translation]:
        """One :class:`Translation` per text, in order (``to``: default detected per text;
        ``changes``: SearchOptions keys over ``options``, default the translator's); a failed
        text's is empty, with its ``error``. ``between_steps`` may wait, or raise ``Cancelled``.
        ``target_prefix``: text each translation must start with (one for all, or one per text,
        None for none); the search continues from it (``prefix.py``). ``constraints``: per text
        (of one sentence), phrases its translation must hold, or None (``constraints.py``)."""
        found = self.stream(
            texts, to, options, between_steps, target_prefix, constraints, **changes
        )
        return list(found)

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
        best = [result.text for result in results]
        return best[0] if isinstance(texts, str) else best

    def stream(
        self,
        texts: Sequence[str],
        to: str | None = None,
        options: SearchOptions | None = None,
        between_steps: StepHook = no_pause,
        target_prefix: str | Sequence[str | None] | None = None,
        constraints: Sequence[Sequence[str] | None] | None = None,
        **changes: Any,
    ) -> Iterator[Translation]:
        """:meth:`translate`, each as soon as it and every text before it are translated."""
        if isinstance(texts, str):  # its characters would each be a text
            raise TypeError("texts must be a list of strings (call the translator with one)")
        chosen = dataclasses.replace(options or self.options, **changes)
        self.check(chosen)
        can_hold = self.engine.lexical_constraints and not chosen.sampling
        holds = (chosen.keep_links, chosen.hold_numbers, chosen.hold_dates, chosen.hold_code)
        links, numbers, dates, code = (can_hold and option for option in holds)
        n, phrases = len(texts), phrases_per_text(constraints, len(texts))
        if chosen.sampling and any(phrases):
            raise ValueError("constraints need beam search (or greedy decoding), not sampling")
        held = zip(per_text(target_prefix, n), phrases, strict=True)
        work = [
            self.text.prepare(t, to, chosen, Held(p, c, links, numbers, dates, code))
            for t, (p, c) in zip(texts, held, strict=True)
        ]
        pieces = [(text, i) for text in work for i in range(len(text.pieces))]
        lengths = [len(text.pieces[i]) for text, i in pieces]
        apart = chosen.per_target
        order = sorted(range(len(pieces)), key=lambda i: (apart and pieces[i][0].to, lengths[i]))
        batches = token_batches(order, lengths, self.engine.options.batch_tokens)
        for text in in_order(
            work,
            ([pieces[i] for i in batch] for batch in batches),
            lambda batch: self._decode(batch, chosen, between_steps),
        ):
            yield assemble(text, self.text.src_vocab, self.text.tgt_vocab)

    def token_counts(self, texts: list[str], to: str | None = None) -> list[int]:
        """The source tokens the model reads for each text: what decoding it costs, before beam."""
        target_of, pieces = self.text.languages.target_of, self.text.pieces
        return [sum(map(len, pieces(t, target_of(t, to), self.options))) for t in texts]

    def cross_attention(self, text: str, to: str | None = None) -> AttentionMaps:
        """Translate ``text`` as one sequence, then every layer's and head's attention over it."""
        options = dataclasses.replace(self.options, split_sentences=False, long_input="error")
        (translation,) = self.translate([text], to, options)
        if translation.error is not None or not translation.source_tokens:
            raise ValueError(translation.error or "nothing to translate: the text is empty")
        lang, pieces = translation.to, translation.candidates[0].tokens
        source = self.text.ids(self.text.sentences(text, lang, options)[0], lang)  # as read
        target = [self.text.model.bos_id, *map(self.text.tgt_vocab.piece_to_id, pieces[:-1])]
        layers = self.engine.cross_attention(source, target)
        return AttentionMaps(translation.source_tokens, pieces, layers)

    def _decode(self, pieces: list[Piece], options: SearchOptions, hook: StepHook) -> None:
        """Decode ``pieces`` into their texts; one that fails alone is its text's error."""

        def run(part: list[Piece]) -> list:
            sources, targets = [text.pieces[i] for text, i in part], [t.to for t, _ in part]
            prefixes = [text.prefix if i == 0 else [] for text, i in part]  # a text's start
            held = [text.constraints[i] if text.constraints else [] for text, i in part]
            return search_held(
                self.engine, self.text, sources, targets, options, hook, (prefixes, held)
            )

        for (text, i), found in zip(pieces, isolated(pieces, run), strict=True):
            if isinstance(found, Exception):
                text.error = f"not translated: {str(found) or type(found).__name__}"
            else:
                text.found[i] = found

    def check(self, options: SearchOptions) -> None:
        """Refuse ``options`` this model cannot decode by."""
        if options.reranks and not self.checkpoint.data.bidirectional:
            raise ValueError("rerank_backward needs a model that translates both ways")
        size, eos = len(self.text.tgt_vocab), self.text.model.eos_id
        if any(i >= size or i == eos for i in [*options.suppress_ids, *options.penalized_ids]):
            raise ValueError(
                f"suppress_ids and penalized_ids must be ids of the target vocabulary (< {size}), "
                "not EOS"
            )


def per_text(prefix: str | Sequence[str | None] | None, n: int) -> list[str | None]:
    """``n`` target prefixes: ``prefix`` for every text, or one per text."""
    if prefix is None or isinstance(prefix, str):
        return [prefix] * n
    if len(prefix) != n or not all(p is None or isinstance(p, str) for p in prefix):
        raise ValueError(f"target_prefix needs a string or None for each of the {n} texts")
    return list(prefix)


def phrases_per_text(constraints: Sequence[Sequence[str] | None] | None, n: int) -> list[list[str]]:
    """``n`` lists of phrases: none, or each text's own (None for none)."""
    if constraints is None:
        return [[] for _ in range(n)]
    if isinstance(constraints, str) or len(constraints) != n:
        raise ValueError(f"constraints needs a list of phrases or None for each of the {n} texts")
    for phrases in constraints:
        listed = isinstance(phrases, Sequence) and not isinstance(phrases, str)
        if phrases is not None and not (listed and all(isinstance(p, str) for p in phrases)):
            raise ValueError("constraints needs a list of phrases (strings) or None per text")
    return [list(phrases or []) for phrases in constraints]


__all__ = ["BUNDLED", "Translator", "resolve_model_dir"]

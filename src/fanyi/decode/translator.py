"""Translator: load a model directory once, then text in, text out.

Each text is cleaned as the training corpus was (``lang.Normalizer``), cut into sentences
(``lang.split_sentences``), and each sentence tagged ``<2xx>`` when the model translates both
ways. The sentences of all texts are cut into token-bounded batches, searched over the decoder's
cache (``decode``) and detokenised; each text's translated sentences are joined again, so one
text in gives one translation out and no sentence is dropped. A sentence longer than the model
reads is cut into pieces that each fit with its tag and EOS, or is its text's error
(``DecodeConfig.long_input``): every search and backward score sees pieces that fit. A piece that
fails fails alone (``pending.py``): its text's translation is empty, with an ``error``.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

import torch

from ..data import Vocab
from ..data.batching import pad_rows, token_batches
from ..device import resolve_device
from ..lang import Languages, Normalizer, add_tag, split_sentences
from ..model import Model
from ..sections import Checkpoint
from . import ensemble
from .config import DecodeConfig, for_target, model_decode_config, with_options
from .dtype import prepare_model, resolved, weights_key
from .hypothesis import Hypothesis, StepHook, no_pause
from .long_input import TooLong, fitting, too_long
from .pending import Pending, Piece, in_order, isolated
from .rerank import backward_scores, log_likelihoods, rerank
from .search import decode
from .translation import AttentionMaps, Translation, assemble, unicode_problem

BUNDLED = Path(__file__).resolve().parents[1] / "bundled" / "zh-en"
MAX_BATCH_TOKENS = 1 << 17  # padded source tokens a batch may hold (times beam: its rows' tokens)


def resolve_model_dir(model_dir: str | Path | None) -> Path:
    """``model_dir``; a bundled model's name (``zh-en``, ``zh-en-general``) where no such
    directory exists; the default bundled model when it is None (a clear error if none)."""
    if model_dir is not None:
        path = Path(model_dir)
        named = BUNDLED.parent / str(model_dir)
        if not path.exists() and path.name == str(model_dir) and named.is_dir():
            return named
        return path
    if not BUNDLED.is_dir():
        raise FileNotFoundError(f"no bundled model (looked in {BUNDLED}); pass -m DIR")
    return BUNDLED


class Translator:
    """A trained model ready to translate: ``Translator.load(dir).translate(["你好。"])``."""

    def __init__(
        self,
        model: Model,
        checkpoint: Checkpoint,
        config: DecodeConfig,
        batch_tokens: int = 4096,
    ) -> None:
        self._init_text(checkpoint, config, batch_tokens)
        self.model_config = model.config  # an ensemble's: as far as every member reads
        self.device = next(model.parameters()).device
        self.config = resolved(model, config, weights_key(checkpoint))  # dtype auto chosen
        self.model = prepare_model(model, self.config)

    def _init_text(self, checkpoint: Checkpoint, config: DecodeConfig, batch_tokens: int) -> None:
        """What every engine shares: configs, languages, vocabularies, the special ids."""
        if not 1 <= batch_tokens <= MAX_BATCH_TOKENS:
            raise ValueError(
                f"batch_tokens must be between 1 and {MAX_BATCH_TOKENS}, not {batch_tokens}"
            )
        self.checkpoint = checkpoint
        self.config = config
        self.batch_tokens = batch_tokens
        data = checkpoint.data
        self.languages = Languages(data.src_lang, data.tgt_lang, data.bidirectional)
        self.src_vocab, self.tgt_vocab = checkpoint.vocabularies()
        self.model_config = checkpoint.model  # special ids, max_len
        self._tags = {lang: self.source_ids("", lang)[:-1] for lang in self.languages.targets}
        if config.rerank_backward or any(config.rerank_backward_by_target.values()):
            self._require_bidirectional()

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        config: DecodeConfig | None = None,
        device: str | torch.device = "cpu",
        batch_tokens: int = 4096,
        **options: object,
    ) -> Translator:
        """Load a model or ensemble directory (default: the bundled model) onto ``device`` (cpu,
        cuda, cuda:N or auto) to decode by ``config`` (default: the model's own,
        :func:`model_decode_config`) with ``options`` (any DecodeConfig key: beam, dtype, …, as
        values or as the strings of flags) on top."""
        on = resolve_device(device)
        model, checkpoint = ensemble.load(resolve_model_dir(model_dir), device=on)
        config = with_options(config or model_decode_config(checkpoint), options)
        return cls(model, checkpoint, config, batch_tokens)

    @property
    def max_len(self) -> int:
        """The most source tokens the model reads at once (its positions)."""
        return self.model_config.max_len

    @property
    def targets(self) -> list[str]:
        """The languages this model translates into."""
        return self.languages.targets

    @overload
    def translate(self, texts: str, *args: Any, **kwargs: Any) -> str | Translation: ...
    @overload
    def translate(
        self, texts: Sequence[str], *args: Any, **kwargs: Any
    ) -> list[str] | list[Translation]: ...
    def translate(
        self,
        texts: str | Sequence[str],
        to: str | None = None,
        beam: int | None = None,
        n_best: int | None = None,
        return_scores: bool = False,
        return_attention: bool = False,
    ) -> str | Translation | list[str] | list[Translation]:
        """Translate ``texts``: their best translations as strings, or, when ``n_best`` > 1 or
        scores or attention are asked for, one :class:`Translation` per text. One string in gives
        one result out; a list of strings, a list in the same order."""
        batch = [texts] if isinstance(texts, str) else texts
        results = self.translations(batch, to, beam, n_best, return_attention)
        for i, result in enumerate(results):
            if result.error is not None:
                warnings.warn(f"text {i}: {result.error}", stacklevel=2)
        full = (n_best or 1) > 1 or return_scores or return_attention
        out: list[str] | list[Translation] = results if full else [r.text for r in results]
        return out[0] if isinstance(texts, str) else out

    __call__ = translate  # translator("你好"), translator(["a", "b"]): as a pipeline is called

    def translations(
        self,
        texts: Sequence[str],
        to: str | None = None,
        beam: int | None = None,
        n_best: int | None = None,
        attention: bool = False,
        between_steps: StepHook = no_pause,
    ) -> list[Translation]:
        """One :class:`Translation` per text, in input order (``to``: the target language,
        default detected per text; ``beam``, ``n_best``: default the translator's config). A
        text that is not Unicode, or that fails to decode, gets an empty one and its ``error``,
        without failing the others. ``between_steps`` runs before every decoding step: it may
        wait, or raise ``Cancelled``."""
        changes: dict[str, object] = {"attention": attention}
        if beam is not None:
            changes["beam"] = beam
        if n_best is not None:
            changes["n_best"] = n_best
        config = dataclasses.replace(self.config, **changes)  # type: ignore[arg-type]
        return list(self._translate(texts, to, config, between_steps))

    def stream(self, texts: Sequence[str], to: str | None = None) -> Iterator[Translation]:
        """:meth:`translations` by the translator's config, one at a time, in input order: each
        as soon as it and every text before it are translated (the batches go shortest first)."""
        return self._translate(texts, to, self.config)

    def token_counts(self, texts: list[str], to: str | None = None) -> list[int]:
        """How many source tokens the model reads for each text (0 for one that is not Unicode):
        what decoding it costs, before the beam."""
        return [
            sum(map(len, self._source(text, self.languages.target_of(text, to), self.config)))
            for text in texts
        ]

    def source_ids(self, text: str, to: str) -> list[int]:
        """The ids the model reads for ``text`` (one sentence) into ``to``: tag, pieces, EOS."""
        if problem := unicode_problem(text):
            raise ValueError(problem)
        if self.checkpoint.data.lang_tags:
            text = add_tag(text, to)
        return [*self.src_vocab.encode(text), self.model_config.eos_id]

    def sentences(self, text: str, to: str, split: bool = True) -> list[str]:
        """``text`` normalised as the source side of the training data, cut into sentences."""
        data = self.checkpoint.data
        source_lang = self.languages.source_of(to)
        text = Normalizer(source_lang, nfkc=data.nfkc, t2s=data.t2s)(text)
        if not split:
            return [text] if text else []
        return split_sentences(text, source_lang)

    def cross_attention(self, text: str, to: str | None = None) -> AttentionMaps:
        """Translate ``text`` as one sequence, then every layer's and head's attention over it."""
        members = self.model.members()
        if len(members) > 1:
            raise ValueError("an ensemble has no single attention map: give one member's directory")
        config = dataclasses.replace(self.config, split_sentences=False, long_input="error")
        translation = next(self._translate([text], to, config))
        if translation.error is not None:
            raise ValueError(translation.error)
        if not translation.source_tokens:
            raise ValueError("nothing to translate: the text is empty")
        ids = self.source_ids(self.sentences(text, translation.to, split=False)[0], translation.to)
        pieces = translation.candidates[0].tokens
        target = [self.model_config.bos_id, *map(self.tgt_vocab.piece_to_id, pieces[:-1])]
        with torch.no_grad():
            memory = members[0].encode(torch.tensor([ids], device=self.device))
            _, weights = members[0].decode(
                torch.tensor([target], device=self.device), memory, None, need_weights=True
            )
        layers = torch.stack([w[0].float() for w in weights]).cpu()
        return AttentionMaps(translation.source_tokens, pieces, layers)

    # --- internals ---

    def _translate(
        self,
        texts: Sequence[str],
        to: str | None,
        config: DecodeConfig,
        between_steps: StepHook = no_pause,
    ) -> Iterator[Translation]:
        """Every piece of every text decoded in token-bounded batches, shortest first; each text's
        translation yielded, in input order, once its pieces are done."""
        if isinstance(texts, str):  # its characters would each be a text
            raise TypeError("texts must be a list of strings (translate takes one string)")
        if config.rerank_backward or any(config.rerank_backward_by_target.values()):
            self._require_bidirectional()
        work = [self._prepare(text, to, config) for text in texts]
        pieces = [(text, i) for text in work for i in range(len(text.pieces))]
        lengths = [len(text.pieces[i]) for text, i in pieces]
        apart = bool(config.length_penalty_by_target or config.rerank_backward_by_target)
        order = sorted(range(len(pieces)), key=lambda i: (apart and pieces[i][0].to, lengths[i]))
        batches = token_batches(order, lengths, self.batch_tokens)
        for text in in_order(
            work,
            ([pieces[i] for i in batch] for batch in batches),
            lambda batch: self._decode_pieces(batch, config, between_steps),
        ):
            yield assemble(text, self.src_vocab, self.tgt_vocab)

    def _prepare(self, text: str, to: str | None, config: DecodeConfig) -> Pending:
        """``text`` on its way: its target (a ``to`` this model does not translate into raises),
        its pieces, or why it will not be translated."""
        lang = self.languages.target_of(text, to)
        error, pieces = unicode_problem(text), []
        if error is None:
            try:
                pieces = self._source(text, lang, config)
            except TooLong as long:
                error = str(long)
        return Pending(text, lang, pieces, [None] * len(pieces), error)

    def _source(self, text: str, to: str, config: DecodeConfig) -> list[list[int]]:
        """The ids of each sentence of ``text``, in pieces that fit the model (``TooLong`` for a
        sentence that does not, with ``long_input: error``); none when it is not Unicode."""
        if unicode_problem(text):
            return []
        sentences = self.sentences(text, to, config.split_sentences)
        return [piece for s in sentences for piece in self._fitting(s, to, config)]

    def _fitting(self, sentence: str, to: str, config: DecodeConfig) -> list[list[int]]:
        """The ids of ``sentence``, cut (``long_input: split``) into near-equal pieces that each
        fit the model with the tag and EOS when they do not fit whole."""
        ids = self.source_ids(sentence, to)
        if len(ids) <= self.max_len:
            return [ids]
        if config.long_input == "error":
            raise too_long(len(ids), self.max_len)
        tag, eos = self._tags[to], self.model_config.eos_id
        return [[*tag, *p, eos] for p in fitting(ids[len(tag) : -1], self.max_len - len(tag) - 1)]

    def _decode_pieces(
        self, pieces: list[Piece], config: DecodeConfig, between_steps: StepHook
    ) -> None:
        """Decode ``pieces`` into their texts; one that fails alone is its text's error."""

        def run(part: list[Piece]) -> list[list[Hypothesis]]:
            sources = [text.pieces[i] for text, i in part]
            return self._decode_by_target(sources, [t.to for t, _ in part], config, between_steps)

        results = isolated(pieces, run)
        for (text, i), found in zip(pieces, results, strict=True):
            if isinstance(found, Exception):
                text.error = f"not translated: {str(found) or type(found).__name__}"
            else:
                text.found[i] = found

    def _decode_by_target(
        self,
        sources: list[list[int]],
        targets: list[str],
        config: DecodeConfig,
        between_steps: StepHook,
    ) -> list[list[Hypothesis]]:
        """Decode all together, or each target language apart where its α or λ differ."""
        if not (config.length_penalty_by_target or config.rerank_backward_by_target):
            return self._search(sources, targets, config, between_steps)
        results: list[list[Hypothesis]] = [[] for _ in sources]
        for lang in sorted(set(targets)):
            rows = [i for i, t in enumerate(targets) if t == lang]
            part = [sources[i] for i in rows]
            found = self._search(part, [lang] * len(rows), for_target(config, lang), between_steps)
            for i, hypotheses in zip(rows, found, strict=True):
                results[i] = hypotheses
        return results

    def _search(
        self,
        sources: list[list[int]],
        targets: list[str],
        config: DecodeConfig,
        between_steps: StepHook,
    ) -> list[list[Hypothesis]]:
        """The search ``config`` asks for; with ``rerank_backward`` (beam search), every
        hypothesis of the beam, reranked (decode/rerank.py)."""
        reranked = config.rerank_backward > 0 and not config.sampling and config.beam > 1
        search = dataclasses.replace(config, n_best=config.beam) if reranked else config
        found = self._decode(sources, search, between_steps)
        if not reranked:
            return found
        return self._rerank(sources, targets, found, config, between_steps)

    def _rerank(
        self,
        sources: list[list[int]],
        targets: list[str],
        found: list[list[Hypothesis]],
        config: DecodeConfig,
        between_steps: StepHook,
    ) -> list[list[Hypothesis]]:
        """Each source's hypotheses reranked by log P(source | hypothesis), the model
        translating each hypothesis back into the source's language."""
        sentences = [
            ids[len(self._tags[to]) : -1] for ids, to in zip(sources, targets, strict=True)
        ]
        tags = [self._tags[self.languages.source_of(to)] for to in targets]
        score = functools.partial(self._log_likelihoods, between_batches=between_steps)
        eos = self.model_config.eos_id
        backward = backward_scores(found, sentences, tags, score, self.max_len, eos)
        lengths = [len(sentence) for sentence in sentences]
        return rerank(found, backward, lengths, config.rerank_backward, config.n_best)

    def _require_bidirectional(self) -> None:
        if not self.checkpoint.data.bidirectional:
            raise ValueError("rerank_backward needs a model that translates both ways")

    def _log_likelihoods(
        self,
        sources: list[list[int]],
        targets: list[list[int]],
        between_batches: StepHook = no_pause,
    ) -> list[float]:
        """log P(target, EOS | source) of each pair of id lists (sources end in EOS)."""
        return log_likelihoods(self.model, sources, targets, self.batch_tokens, between_batches)

    def _decode(
        self, sources: list[list[int]], config: DecodeConfig, between_steps: StepHook
    ) -> list[list[Hypothesis]]:
        """Decode in batches of at most ``batch_tokens`` padded source tokens, shortest first."""
        order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
        results: list[list[Hypothesis]] = [[] for _ in sources]
        c = self.model_config
        bos, eos, pad = c.bos_id, c.eos_id, c.pad_id
        for batch in token_batches(order, [len(s) for s in sources], self.batch_tokens):
            src = pad_rows([sources[i] for i in batch], pad).to(self.device)
            hypotheses = decode(self.model, src, config, bos, eos, between_steps)
            for i, hyps in zip(batch, hypotheses, strict=True):
                results[i] = hyps
        return results

    @staticmethod
    def _pieces(vocab: Vocab, ids: list[int]) -> list[str]:
        return [vocab.id_to_piece(i) for i in ids]

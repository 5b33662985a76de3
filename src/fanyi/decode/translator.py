"""Translator: load a model directory once, then text in, text out.

The input is cleaned as the training corpus was (``Normalizer``: NFKC, Traditional → Simplified
on Chinese), tagged ``<2xx>`` when the model translates both ways, cut into token-bounded
batches, searched over the decoder's cache (``decode``) and detokenised. A source longer than
the model's positions is first cut at sentence ends; what is still too long follows
``DecodeConfig.long_input``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import Tensor

from ..data import Normalizer, Vocab, add_tag
from ..data.vocab import EOS, model_vocabularies
from ..train.checkpoint import Checkpoint, load_model
from .config import DecodeConfig, Dtype, LongInput
from .hypothesis import Hypothesis
from .quantize import prepare_model
from .search import decode

BUNDLED = Path(__file__).resolve().parents[1] / "bundled" / "zh-en"
CHINESE = "zh"
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;.])\s*")


def resolve_model_dir(model_dir: str | Path | None) -> Path:
    """``model_dir``, or the bundled model when it is None (a clear error if there is none)."""
    if model_dir is not None:
        return Path(model_dir)
    if not BUNDLED.is_dir():
        raise FileNotFoundError(f"no bundled model (looked in {BUNDLED}); pass -m DIR")
    return BUNDLED


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Han character (the script test of direction detection)."""
    return _HAN.search(text) is not None


@dataclass
class Candidate:
    """One translation of one source: an n-best entry."""

    text: str  # detokenised
    score: float  # log P / GNMT length penalty: the rank used by the search
    log_prob: float  # log P(tokens, EOS | source)
    tokens: list[str]  # target pieces, then "</s>"
    attention: Tensor | None = None  # len(tokens) x len(source_tokens): last layer, head mean


@dataclass
class Translation:
    """A source, the language it was translated into, and its n-best candidates (best first)."""

    source: str  # as given
    to: str
    source_tokens: list[str]  # the pieces the model read: tag (if any), text, "</s>"
    candidates: list[Candidate]

    @property
    def text(self) -> str:
        return self.candidates[0].text


@dataclass
class AttentionMaps:
    """Every layer's and head's cross-attention for one translation."""

    source_tokens: list[str]
    target_tokens: list[str]  # the pieces produced, then "</s>"
    weights: Tensor  # N_dec x h x len(target_tokens) x len(source_tokens)


@dataclass
class _Segment:
    """A piece of one source sent to the model."""

    owner: int  # index of the source text
    ids: list[int]


class Translator:
    """A trained model ready to translate: ``Translator.load(dir).translate(["你好。"])``."""

    def __init__(
        self,
        model: torch.nn.Module,
        checkpoint: Checkpoint,
        config: DecodeConfig,
        batch_tokens: int = 4096,
    ) -> None:
        self._init_text(checkpoint, config, batch_tokens)
        self.device = next(model.parameters()).device
        self.model = prepare_model(model, config)
        self.threads = torch.get_num_threads()  # prepare_model set it; worker threads copy it

    def _init_text(self, checkpoint: Checkpoint, config: DecodeConfig, batch_tokens: int) -> None:
        """What every engine shares: configs, vocabularies, the model's special ids."""
        self.checkpoint = checkpoint
        self.config = config
        self.batch_tokens = batch_tokens
        self.src_vocab, self.tgt_vocab = model_vocabularies(checkpoint.path, checkpoint.vocab)
        self.model_config = checkpoint.model  # special ids, max_len

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        device: str = "cpu",
        dtype: Dtype = "fp32",
        threads: int = 0,
        batch_tokens: int = 4096,
        long_input: LongInput = "split",
        **decode_options: object,
    ) -> Translator:
        """Load a model directory (default: the bundled model). ``threads`` ≤ 0: every core;
        ``decode_options``: any other ``DecodeConfig`` key (beam, length_penalty, max_len_a…)."""
        model, checkpoint = load_model(resolve_model_dir(model_dir), device=device)
        config = DecodeConfig(dtype=dtype, threads=threads, long_input=long_input, **decode_options)  # type: ignore[arg-type]
        return cls(model, checkpoint, config, batch_tokens)

    @property
    def targets(self) -> list[str]:
        """The languages this model translates into."""
        data = self.checkpoint.data
        return [data.tgt_lang, data.src_lang] if data.bidirectional else [data.tgt_lang]

    def target_of(self, text: str, to: str | None = None) -> str:
        """The target language: ``to`` if given, else Han characters → en, anything else → zh."""
        if to is None:
            if len(self.targets) == 1:
                return self.targets[0]
            to = "en" if has_han(text) else CHINESE
        if to not in self.targets:
            raise ValueError(f"this model translates into {' and '.join(self.targets)}, not {to!r}")
        return to

    def translate(
        self,
        texts: list[str],
        to: str | None = None,
        beam: int | None = None,
        n_best: int | None = None,
        return_scores: bool = False,
        return_attention: bool = False,
    ) -> list[str] | list[Translation]:
        """Translate ``texts``: their best translations as strings, or, when ``n_best`` > 1 or
        scores or attention are asked for, one :class:`Translation` per text."""
        results = self.translations(texts, to, beam, n_best, attention=return_attention)
        if (n_best or 1) > 1 or return_scores or return_attention:
            return results
        return [r.text for r in results]

    def translations(
        self,
        texts: list[str],
        to: str | None = None,
        beam: int | None = None,
        n_best: int | None = None,
        attention: bool = False,
    ) -> list[Translation]:
        """One :class:`Translation` per text, with its n-best candidates, in input order."""
        config = self._config(beam, n_best, attention)
        torch.set_num_threads(self.threads)  # per thread: the server decodes in a worker thread
        targets = [self.target_of(text, to) for text in texts]
        sources = [self.source_ids(text, lang) for text, lang in zip(texts, targets, strict=True)]
        segments = [_Segment(i, ids) for i, src in enumerate(sources) for ids in self._split(src)]
        hypotheses = self._decode([s.ids for s in segments], config)
        per_text: list[list[list[Hypothesis]]] = [[] for _ in texts]
        for segment, hyps in zip(segments, hypotheses, strict=True):
            per_text[segment.owner].append(hyps)
        return [
            self._translation(*args) for args in zip(texts, targets, sources, per_text, strict=True)
        ]

    def source_ids(self, text: str, to: str) -> list[int]:
        """The ids the model reads for ``text`` into ``to`` (tag, pieces, EOS); [] when empty."""
        data = self.checkpoint.data
        source_lang = data.src_lang if to == data.tgt_lang else data.tgt_lang
        text = Normalizer(source_lang, nfkc=data.nfkc, t2s=data.t2s)(text)
        if not text:
            return []
        return [
            *self.src_vocab.encode(add_tag(text, to) if data.lang_tags else text),
            self.model_config.eos_id,
        ]

    def cross_attention(self, text: str, to: str | None = None) -> AttentionMaps:
        """Translate ``text``, then every layer's and head's attention over its source."""
        translation = self.translations([text], to)[0]
        if not translation.source_tokens:
            raise ValueError("nothing to translate: the text is empty")
        ids = self.source_ids(text, translation.to)
        if len(ids) > self.model_config.max_len:
            raise ValueError(f"the text has {len(ids)} tokens, more than the model reads at once")
        pieces = translation.candidates[0].tokens
        target = [self.model_config.bos_id, *map(self.tgt_vocab.piece_to_id, pieces[:-1])]
        src = torch.tensor([ids], device=self.device)
        with torch.no_grad():
            memory = self.model.encode(src)
            _, weights = self.model.decode(
                torch.tensor([target], device=self.device), memory, None, need_weights=True
            )
        return AttentionMaps(
            translation.source_tokens, pieces, torch.stack([w[0].float() for w in weights]).cpu()
        )

    # --- internals ---

    def _config(self, beam: int | None, n_best: int | None, attention: bool) -> DecodeConfig:
        changes: dict[str, object] = {"attention": attention, "n_best": n_best or 1}
        if beam is not None:
            changes["beam"] = beam
        return dataclasses.replace(self.config, **changes)  # type: ignore[arg-type]

    def _split(self, ids: list[int]) -> list[list[int]]:
        """``ids`` as one segment, or cut at sentence ends when longer than the model reads."""
        max_len = self.model_config.max_len
        if not ids:
            return []
        if len(ids) <= max_len or self.config.long_input == "error":
            return [ids]
        tag = ids[:1] if self.checkpoint.data.lang_tags else []
        text = self.src_vocab.decode(ids[len(tag) : -1])
        segments: list[list[int]] = []
        for sentence in filter(None, _SENTENCE_END.split(text)):
            piece = self.src_vocab.encode(sentence)
            if segments and len(segments[-1]) + len(piece) + 1 <= max_len:
                segments[-1].extend(piece)
            else:
                segments.append([*tag, *piece])
        return [[*segment, self.model_config.eos_id] for segment in segments]

    def _decode(self, sources: list[list[int]], config: DecodeConfig) -> list[list[Hypothesis]]:
        """Decode in batches of at most ``batch_tokens`` padded source tokens, shortest first."""
        order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
        results: list[list[Hypothesis]] = [[] for _ in sources]
        for batch in token_batches(order, [len(s) for s in sources], self.batch_tokens):
            src = _pad([sources[i] for i in batch], self.model_config.pad_id).to(self.device)
            hypotheses = decode(
                self.model, src, config, self.model_config.bos_id, self.model_config.eos_id
            )
            for i, hyps in zip(batch, hypotheses, strict=True):
                results[i] = hyps
        return results

    def _translation(
        self, text: str, to: str, ids: list[int], parts: list[list[Hypothesis]]
    ) -> Translation:
        source_tokens = self._pieces(self.src_vocab, ids)
        if not parts:
            return Translation(text, to, source_tokens, [Candidate("", 0.0, 0.0, [])])
        if len(parts) == 1:
            return Translation(text, to, source_tokens, [self._candidate(h) for h in parts[0]])
        best = [self._candidate(hyps[0]) for hyps in parts]  # one per sentence group, in order
        glue = "" if to == CHINESE else " "
        joined = Candidate(
            glue.join(c.text for c in best),
            sum(c.score for c in best) / len(best),
            sum(c.log_prob for c in best),
            [t for c in best for t in c.tokens[:-1]] + [EOS],
        )
        return Translation(text, to, source_tokens, [joined])

    def _candidate(self, hyp: Hypothesis) -> Candidate:
        attention = None if hyp.attention is None else hyp.attention.float().cpu()
        tokens = [*self._pieces(self.tgt_vocab, hyp.tokens), EOS]
        return Candidate(
            self.tgt_vocab.decode(hyp.tokens), hyp.score, hyp.log_prob, tokens, attention
        )

    @staticmethod
    def _pieces(vocab: Vocab, ids: list[int]) -> list[str]:
        return [vocab.id_to_piece(i) for i in ids]


def token_batches(order: list[int], lengths: list[int], batch_tokens: int) -> list[list[int]]:
    """Cut ``order`` (sorted by length) into batches of ≤ ``batch_tokens`` padded tokens
    (a source too long for any batch goes alone)."""
    batches: list[list[int]] = []
    for i in order:
        if batches and (len(batches[-1]) + 1) * lengths[i] <= batch_tokens:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


def _pad(rows: list[list[int]], pad_id: int) -> Tensor:
    """Right-pad id lists into a b x s tensor."""
    src = torch.full((len(rows), max(map(len, rows))), pad_id, dtype=torch.long)
    for i, row in enumerate(rows):
        src[i, : len(row)] = torch.tensor(row)
    return src

"""What a translation returns: its candidates (an n-best list), scores and attention.

A text of several sentences is translated sentence by sentence (``lang.split_sentences``) and
returned as one :class:`Translation`, its sentences' best candidates joined into one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import torch
from torch import Tensor

from ..data.vocab import EOS
from ..text.lang import join_sentences

if TYPE_CHECKING:
    from ..data import Vocab
    from ..decode.hypothesis import Hypothesis
    from .pending import Pending


def unicode_problem(text: str) -> str | None:
    """Why ``text`` is not Unicode text (a lone surrogate, as from undecodable bytes), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        return f"not valid Unicode: a lone surrogate U+{code:04X} at character {error.start}"
    return None


def unplaced_terms(pairs: list[tuple[str, str]]) -> str:
    """A line that names the glossary terms a translation could not place."""
    return "glossary terms not placed: " + "; ".join(f"{a} → {b}" for a, b in pairs)


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
    """A source, the language it was translated into, and its candidates (best first).

    A text of several sentences has one candidate: its sentences' best translations joined (its
    score their mean, its log-probability their sum, its attention block-diagonal).
    """

    source: str  # as given
    to: str
    source_tokens: list[str]  # the pieces the model read, sentence by sentence: tag, text, "</s>"
    candidates: list[Candidate]
    error: str | None = None  # why the text was not translated (its candidate is then empty)
    source_lang: str | None = None  # the language of the source: given, or detected
    # a glossary's (term, its translation) pairs the source holds and its translation misses
    unplaced: list[tuple[str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.candidates[0].text


@dataclass
class AttentionMaps:
    """Every layer's and head's cross-attention for one translation."""

    source_tokens: list[str]
    target_tokens: list[str]  # the pieces produced, then "</s>"
    weights: Tensor  # N_dec x h x len(target_tokens) x len(source_tokens)


def block_diagonal(blocks: list[Tensor | None]) -> Tensor | None:
    """Sentences' attention maps (each target pieces + EOS x its source) as one map of the joined
    translation: each sentence's rows over its own source columns, inner EOS rows dropped."""
    if any(b is None for b in blocks):
        return None
    rows = [b[:-1] for b in blocks[:-1]] + [blocks[-1]]  # type: ignore[index]
    return torch.block_diag(*rows)


def assemble(text: Pending, source: Vocab, target: Vocab) -> Translation:
    """A text's translation: its sentences' (pieces') best candidates joined."""
    tokens = [source.id_to_piece(i) for ids in text.pieces for i in ids]
    parts = [hypotheses for hypotheses in text.found if hypotheses is not None]
    lang = text.source_lang
    if text.unchanged is not None:  # in the language asked already: no model
        kept = [Candidate(text.unchanged, 0.0, 0.0, [])]
        return Translation(text.source, text.to, [], kept, source_lang=lang)
    if text.error is not None or not parts:  # failed, or nothing left for the model to read
        back = "" if text.error is not None else text.written_back("")  # an emoji alone, say
        empty = [Candidate(back, 0.0, 0.0, [])]
        return Translation(text.source, text.to, tokens, empty, text.error, source_lang=lang)
    if len(parts) == 1:
        candidates = [candidate(h, target, text.written_back) for h in parts[0]]
        return Translation(text.source, text.to, tokens, candidates, source_lang=lang)
    best = [candidate(hyps[0], target) for hyps in parts]  # one per sentence, in order
    joined = Candidate(
        text.written_back(join_sentences([c.text for c in best], text.to)),
        sum(c.score for c in best) / len(best),
        sum(c.log_prob for c in best),
        [t for c in best for t in c.tokens[:-1]] + [EOS],
        block_diagonal([c.attention for c in best]),
    )
    return Translation(text.source, text.to, tokens, [joined], source_lang=lang)


def candidate(hyp: Hypothesis, vocab: Vocab, written_back: Callable[[str], str] = str) -> Candidate:
    """``hyp`` detokenised by the target ``vocab`` and ``written_back`` (``Pending``: the
    source's numbers and code as it wrote them), its attention as fp32 on the host."""
    attention = None if hyp.attention is None else hyp.attention.float().cpu()
    tokens = [*(vocab.id_to_piece(i) for i in hyp.tokens), EOS]
    text = written_back(vocab.decode(hyp.tokens).rstrip())  # no space the search ended on
    return Candidate(text, hyp.score, hyp.log_prob, tokens, attention)

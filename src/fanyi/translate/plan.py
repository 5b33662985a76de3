"""The searches one batch of sources needs: apart per target language where its α, λ, β or
suppressed pieces differ (``SearchOptions.per_target``); with ``rerank_backward``, the whole beam
reranked by the backward score (``rerank.py``); and where a translation misses a phrase it must
hold, that source searched again, held to them (``constraints.py``)."""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import TypeVar

from ..decode.constraints import Spellings
from ..decode.hypothesis import Hypothesis, StepHook
from ..decode.options import SearchOptions, for_target
from ..decode.rerank import backward_scores, rerank
from ..engines.registry import Engine
from ..text.numerals import whole
from ..text.runs import degenerate
from .pending import Piece, isolated
from .source_text import SourceText
from .target_text import TargetText

T = TypeVar("T")


@dataclass(frozen=True)
class Searcher:
    """What every search of a batch shares: the engine, the model's text, the options and the
    hook called between decoding steps."""

    engine: Engine
    text: SourceText
    options: SearchOptions
    between_steps: StepHook

    def with_options(self, options: SearchOptions) -> Searcher:
        return dataclasses.replace(self, options=options)


@dataclass(frozen=True)
class Rows:
    """Sources (ids ending in EOS), the language each goes into, and each one's target prefix
    and constraints (target ids; None: none for any source)."""

    sources: list[list[int]]
    targets: list[str]
    prefixes: list[list[int]] | None = None
    constraints: list[list[Spellings]] | None = None

    def subset(self, rows: list[int], held: bool = True) -> Rows:
        """The rows ``rows``, with their constraints if ``held``."""
        held_rows = _pick(self.constraints, rows) if held else None
        sources, targets = [self.sources[i] for i in rows], [self.targets[i] for i in rows]
        return Rows(sources, targets, _pick(self.prefixes, rows), held_rows)


def _pick(values: list[T] | None, rows: list[int]) -> list[T] | None:
    """The entries ``rows`` of ``values``, or None (or []) for none."""
    return values and [values[i] for i in rows]


def decode_pieces(searcher: Searcher, pieces: list[Piece]) -> None:
    """Search ``pieces`` (each text's start through its target prefix, each held to its
    constraints) and give each text its hypotheses; a piece that fails alone is its text's
    error (``pending.isolated``)."""

    def run(part: list[Piece]) -> list:
        prefixes = [text.prefix if i == 0 else [] for text, i in part]  # a text's start
        held = [text.constraints[i] if text.constraints else [] for text, i in part]
        sources, targets = [text.pieces[i] for text, i in part], [t.to for t, _ in part]
        return search_held(searcher, Rows(sources, targets, prefixes, held))

    for (text, i), found in zip(pieces, isolated(pieces, run), strict=True):
        if isinstance(found, Exception):
            text.error = f"not translated: {str(found) or type(found).__name__}"
        else:
            text.found[i] = found


def search_held(searcher: Searcher, rows: Rows) -> list[list[Hypothesis]]:
    """``search_by_target`` without constraints first; a source whose translations miss one of
    its constraints is searched again, held to them with α ``constrained_length_penalty`` and
    beam ``constrained_beam``, so that a translation that holds them already stays as it is. Of
    the held search's n-best, the translations that hold them as text are kept (the search may
    run a held phrase into a word: "31299.99" for 1299.99); where none does, the free
    translation stays."""
    every = list(range(len(rows.sources)))
    found = search_by_target(searcher, rows.subset(every, held=False))
    holds = searcher.text.target.holds
    constraints = rows.constraints or []
    missing = [
        i
        for i, phrases in enumerate(constraints)
        if phrases and not all(holds(h.tokens, phrases) for h in found[i])
    ]
    if not missing:
        return found
    alpha, n_best = searcher.options.constrained_length_penalty, searcher.options.n_best
    beam = searcher.options.constrained_beam or searcher.options.beam
    options = dataclasses.replace(
        searcher.options,
        length_penalty=alpha,
        length_penalty_by_target={},
        beam=max(beam, n_best),
    )
    again = search_by_target(searcher.with_options(options), rows.subset(missing))
    for i, hypotheses in zip(missing, again, strict=True):
        if kept := _holding(searcher.text.target, hypotheses, constraints[i]):
            found[i] = kept[:n_best]
    return found


def _holding(
    target: TargetText, hypotheses: list[Hypothesis], phrases: list[Spellings]
) -> list[Hypothesis]:
    """The held search's ``hypotheses`` that hold ``phrases`` as text: its best, and after it
    those that write no phrase run into a word anywhere ("Syrialy" beside "Syria")."""
    kept = []
    for n, hypothesis in enumerate(hypotheses):
        if target.holds(hypothesis.tokens, phrases) and (
            n == 0 or not _run_in(target.vocab.decode(hypothesis.tokens), target, phrases)
        ):
            kept.append(hypothesis)
    return kept


def _run_in(text: str, target: TargetText, phrases: list[Spellings]) -> bool:
    """Whether ``text`` writes one of ``phrases`` somewhere not as whole words."""
    for phrase in {target.vocab.decode(form).strip() for forms in phrases for form in forms}:
        for at in (m.start() for m in re.finditer(re.escape(phrase), text)):
            if phrase and not whole(phrase, text[max(at - 1, 0) : at + len(phrase) + 1]):
                return True
    return False


def search_by_target(searcher: Searcher, rows: Rows) -> list[list[Hypothesis]]:
    """Decode all together, or each target language apart where its α, λ, β or suppressed
    pieces differ."""
    if not searcher.options.per_target:
        return search(searcher, rows)
    results: list[list[Hypothesis]] = [[] for _ in rows.sources]
    text = searcher.text.target
    for lang in sorted(set(rows.targets)):
        picked = [i for i, t in enumerate(rows.targets) if t == lang]
        options = for_target(searcher.options, lang, text.foreign(lang), text.other_script(lang))
        found = search(searcher.with_options(options), rows.subset(picked))
        for i, hypotheses in zip(picked, found, strict=True):
            results[i] = hypotheses
    return results


def search(searcher: Searcher, rows: Rows) -> list[list[Hypothesis]]:
    """The search the options ask for; with ``rerank_backward`` (beam search), every
    hypothesis of the beam, reranked by log P(source | hypothesis), the model translating each
    back."""
    options, engine, text = searcher.options, searcher.engine, searcher.text
    reranked = options.rerank_backward > 0 and not options.sampling and options.beam > 1
    wide = dataclasses.replace(options, n_best=options.beam) if reranked else options
    found = engine.decode(
        rows.sources, wide, searcher.between_steps, rows.prefixes, rows.constraints
    )
    if not reranked:
        return without_runs(searcher, rows, found)
    tags = text.tags
    sentences = [
        ids[len(tags[to]) : -1] for ids, to in zip(rows.sources, rows.targets, strict=True)
    ]
    back = [tags[text.languages.source_of(to)] for to in rows.targets]
    score = functools.partial(engine.log_likelihoods, between_batches=searcher.between_steps)
    max_len, eos = text.model.max_len, text.model.eos_id
    backward = backward_scores(found, sentences, back, score, max_len, eos)
    lengths = [len(sentence) for sentence in sentences]
    return rerank(found, backward, lengths, options.rerank_backward, options.n_best)


def without_runs(
    searcher: Searcher, rows: Rows, found: list[list[Hypothesis]]
) -> list[list[Hypothesis]]:
    """``found``, where a source's best translation writes a run of ``max_repeat_run`` that its
    source does not, read as text (``degenerate``), searched again for the beam's n-best and
    the best without one taken (if one has none). The search's guard reads pieces, so a run
    across pieces passes it: "X" "ian" "g" "ang" "ang" "ang" spells "Xiangangangang"."""
    options = searcher.options
    n = options.max_repeat_run
    if not n or options.sampling or options.beam < 2:
        return found
    target = searcher.text.target.vocab.decode

    def runs(i: int, hypothesis: Hypothesis) -> bool:  # a source is read only for a run
        text = target(hypothesis.tokens)
        return degenerate(text, "", n) and degenerate(text, read(i), n)

    @functools.cache
    def read(i: int) -> str:
        return searcher.text.src_vocab.decode(rows.sources[i])

    bad = [i for i, hypotheses in enumerate(found) if hypotheses and runs(i, hypotheses[0])]
    if not bad:
        return found
    part, wide = rows.subset(bad), dataclasses.replace(options, n_best=options.beam)
    again = searcher.engine.decode(
        part.sources, wide, searcher.between_steps, part.prefixes, part.constraints
    )
    for i, hypotheses in zip(bad, again, strict=True):
        if clean := [h for h in hypotheses if not runs(i, h)]:
            found[i] = clean[: options.n_best]
    return found

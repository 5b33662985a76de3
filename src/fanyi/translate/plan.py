"""The searches one batch of sources needs: apart per target language where its α, λ, β or
suppressed pieces differ (``SearchOptions.per_target``), and, with ``rerank_backward``, the whole
beam reranked by the backward score (``rerank.py``)."""

from __future__ import annotations

import dataclasses
import functools

from ..decode.constraints import Spellings
from ..decode.hypothesis import Hypothesis, StepHook
from ..decode.options import SearchOptions, for_target
from ..decode.rerank import backward_scores, rerank
from ..engines.registry import Engine
from .source_text import SourceText

# per source, its target prefix and its constraints (target ids; None: none for any source)
HeldIds = tuple[list[list[int]] | None, list[list[Spellings]] | None]


def search_held(
    engine: Engine,
    text: SourceText,
    sources: list[list[int]],
    targets: list[str],
    options: SearchOptions,
    between_steps: StepHook,
    held: HeldIds = (None, None),
) -> list[list[Hypothesis]]:
    """``search_by_target`` without constraints first; a source whose translations miss one of
    its constraints (``held``: target prefixes and constraints) is searched again, held to them
    (``constraints.py``) with α ``constrained_length_penalty``, so that a translation that
    holds them already stays as it is; the free translation stays too where the held one does
    not hold them as text either (a number run into other digits: "31299.99" for 1299.99)."""
    prefixes, constraints = held
    found = search_by_target(
        engine, text, sources, targets, options, between_steps, (prefixes, None)
    )
    missing = [
        i
        for i, phrases in enumerate(constraints or [])
        if phrases and not all(text.holds(h.tokens, phrases) for h in found[i])
    ]
    if missing and constraints:
        part = (prefixes and [prefixes[i] for i in missing], [constraints[i] for i in missing])
        alpha = options.constrained_length_penalty
        held_options = dataclasses.replace(
            options, length_penalty=alpha, length_penalty_by_target={}
        )
        again = search_by_target(
            engine, text, [sources[i] for i in missing], [targets[i] for i in missing],
            held_options, between_steps, part,
        )  # fmt: skip
        for i, hypotheses in zip(missing, again, strict=True):
            if all(text.holds(h.tokens, constraints[i]) for h in hypotheses):
                found[i] = hypotheses
    return found


def search_by_target(
    engine: Engine,
    text: SourceText,
    sources: list[list[int]],
    targets: list[str],
    options: SearchOptions,
    between_steps: StepHook,
    held: HeldIds = (None, None),
) -> list[list[Hypothesis]]:
    """Decode all together, or each target language apart where its α, λ, β or suppressed
    pieces differ (each source through its target prefix, holding its constraints: ``held``)."""
    if not options.per_target:
        return search(engine, text, sources, targets, options, between_steps, held)
    results: list[list[Hypothesis]] = [[] for _ in sources]
    for lang in sorted(set(targets)):
        rows = [i for i, t in enumerate(targets) if t == lang]
        chosen = for_target(options, lang, text.foreign(lang), text.other_script(lang))
        part = [sources[i] for i in rows]
        prefixes, constraints = held
        kept = (
            prefixes and [prefixes[i] for i in rows],
            constraints and [constraints[i] for i in rows],
        )
        found = search(engine, text, part, [lang] * len(rows), chosen, between_steps, kept)
        for i, hypotheses in zip(rows, found, strict=True):
            results[i] = hypotheses
    return results


def search(
    engine: Engine,
    text: SourceText,
    sources: list[list[int]],
    targets: list[str],
    options: SearchOptions,
    between_steps: StepHook,
    held: HeldIds = (None, None),
) -> list[list[Hypothesis]]:
    """The search ``options`` ask for (``held``: each source's target prefix and constraints);
    with ``rerank_backward`` (beam search), every hypothesis of the beam, reranked by
    log P(source | hypothesis), the model translating each back."""
    reranked = options.rerank_backward > 0 and not options.sampling and options.beam > 1
    wide = dataclasses.replace(options, n_best=options.beam) if reranked else options
    found = engine.decode(sources, wide, between_steps, *held)
    if not reranked:
        return found
    tags = text.tags
    sentences = [ids[len(tags[to]) : -1] for ids, to in zip(sources, targets, strict=True)]
    back = [tags[text.languages.source_of(to)] for to in targets]
    score = functools.partial(engine.log_likelihoods, between_batches=between_steps)
    max_len, eos = text.model.max_len, text.model.eos_id
    backward = backward_scores(found, sentences, back, score, max_len, eos)
    lengths = [len(sentence) for sentence in sentences]
    return rerank(found, backward, lengths, options.rerank_backward, options.n_best)

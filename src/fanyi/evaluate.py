"""A translator evaluated: it translates the sources, then they are scored as sacreBLEU scores
them (:mod:`fanyi.scores`)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from .decode.translator import Translator
from .scores import Scores, score


def evaluate(
    translator: Translator,
    sources: Sequence[str],
    references: Sequence[Sequence[str]],
    to: str | None = None,
    beam: int | None = None,
) -> tuple[list[str], Scores]:
    """Translate ``sources`` and score them; returns the translations and the scores."""
    results = translator.translations(list(sources), to=to, beam=beam)
    for i, result in enumerate(results):
        if result.error is not None:  # scored as it is: an empty translation
            warnings.warn(f"source {i + 1}: {result.error}", stacklevel=2)
    hypotheses = [r.text for r in results]
    languages = [r.to for r in results if r.source_tokens]
    target = to or (max(set(languages), key=languages.count) if languages else None)
    return hypotheses, score(hypotheses, references, target)

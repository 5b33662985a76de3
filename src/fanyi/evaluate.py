"""A translator evaluated: it translates the sources, then they are scored as sacreBLEU scores
them (:mod:`fanyi.scores`)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from .decode.options import SearchOptions
from .scores import Scores, score
from .translate.translator import Translator


def evaluate(
    translator: Translator,
    sources: Sequence[str],
    references: Sequence[Sequence[str]],
    to: str | None = None,
    options: SearchOptions | None = None,
    **changes: Any,
) -> tuple[list[str], Scores]:
    """Translate ``sources`` (searching by ``options`` and ``changes``, as
    ``Translator.translate``) and score them; returns the translations and the scores."""
    results = translator.translate(list(sources), to, options, **changes)
    for i, result in enumerate(results):
        if result.error is not None:  # scored as it is: an empty translation
            warnings.warn(f"source {i + 1}: {result.error}", stacklevel=2)
    hypotheses = [r.text for r in results]
    # the language each went into, as the model names it (``to`` may be any code: zh-TW)
    languages = [r.to for r in results if r.source_tokens] or [r.to for r in results]
    target = max(set(languages), key=languages.count) if languages else None
    return hypotheses, score(hypotheses, references, target)

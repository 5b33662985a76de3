"""A translator evaluated: it translates the sources, then they are scored as sacreBLEU scores
them (:mod:`fanyi.scores`). The translations come out in input order as they are done, a window
of sources at a time, so a caller can write each one down before the rest are translated."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .decode.options import SearchOptions
from .inputs import WINDOW_LINES
from .scores import Scores, score
from .translate.translation import Translation
from .translate.translator import Translator


def evaluate(
    translator: Translator,
    sources: Sequence[str],
    references: Sequence[Sequence[str]],
    to: str | None = None,
    options: SearchOptions | None = None,
    *,
    done: Sequence[str] = (),
    write: Callable[[str], None] | None = None,
    **changes: Any,
) -> tuple[list[str], Scores]:
    """Translate ``sources`` (searching by ``options`` and ``changes``, as
    ``Translator.translate``) and score them; returns the translations and the scores.
    ``done``: the translations of the first sources, made before (a resumed run): not made
    again. ``write`` is given each new translation as soon as it and those before it are."""
    hypotheses, languages = list(done), []
    for i, result in enumerate(_stream(translator, sources[len(done) :], to, options, changes)):
        if result.error is not None:  # scored as it is: an empty translation
            warnings.warn(f"source {len(done) + i + 1}: {result.error}", stacklevel=2)
        hypotheses.append(result.text)
        # the language each went into, as the model names it (``to`` may be any code: zh-TW)
        languages.append((result.to, bool(result.source_tokens)))
        if write is not None:
            write(result.text)
    spoken = [lang for lang, has_words in languages if has_words] or [lang for lang, _ in languages]
    target = max(set(spoken), key=spoken.count) if spoken else to
    return hypotheses, score(hypotheses, references, target)


def _stream(
    translator: Translator,
    sources: Sequence[str],
    to: str | None,
    options: SearchOptions | None,
    changes: dict[str, Any],
) -> Iterator[Translation]:
    """Each source's translation in order, WINDOW_LINES sources searched at a time."""
    for start in range(0, len(sources), WINDOW_LINES):
        window = list(sources[start : start + WINDOW_LINES])
        yield from translator.stream(window, to, options, **changes)

"""What ``fanyi translate`` writes for each input line (``--format``).

- ``text``: the best translation, one line per input line; with ``--n-best K`` up to K lines
  ``i ||| translation ||| score`` per input line (Moses' n-best lists, i 0-based).
- ``jsonl``: one JSON object per input line (JSON Lines), whatever ``--n-best`` is::

    {"line": 1, "source": "我很好。", "translation": "I'm fine.", "score": -0.4213,
     "from": "zh", "to": "en", "candidates": [{"translation": "I'm fine.", "score": -0.4213}],
     "error": null}

  ``line`` is 1-based; ``from`` is the line's language as given by ``--from`` or detected (null
  where the model's languages share a script); ``candidates`` is the n-best list, best first;
  ``error`` says why a line was not translated (its translation is then empty).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..translate.translation import Translation

FORMATS = ("text", "jsonl")
FORMAT_HELP = (
    "text: one translation a line (with --n-best, 'i ||| translation ||| score' lines); "
    "jsonl: one JSON object a line with the source, translation, score, n-best candidates, "
    "detected language and error"
)


def written(
    form: str, result: Translation, index: int, n_best: int, problem: str | None = None
) -> list[str]:
    """The output lines of input line ``index`` (0-based) in format ``form``; ``problem`` is why
    it was not translated (its own error, or one found before: invalid UTF-8)."""
    if form == "jsonl":
        return [json_line(result, index, problem)]
    return text_lines(result, index, n_best)


def text_lines(result: Translation, index: int, n_best: int) -> list[str]:
    """The best translation, or with ``n_best`` > 1 the Moses n-best lines."""
    if n_best == 1:
        return [f"{result.text}\n"]
    return [f"{index} ||| {c.text} ||| {c.score:.4f}\n" for c in result.candidates]


def json_line(result: Translation, index: int, problem: str | None = None) -> str:
    """One JSON object for input line ``index`` (0-based), on one line."""
    failed = problem is not None
    candidates = [] if failed else result.candidates
    entry = {
        "line": index + 1,
        "source": result.source,
        "translation": "" if failed else result.text,
        "score": _number(candidates[0].score) if candidates else None,
        "from": result.source_lang,
        "to": result.to,
        "candidates": [{"translation": c.text, "score": _number(c.score)} for c in candidates],
        "error": problem,
    }
    return json.dumps(entry, ensure_ascii=False) + "\n"


def _number(value: float) -> float | None:
    """``value``, or null where JSON has no number for it (an infinite score)."""
    return value if math.isfinite(value) else None

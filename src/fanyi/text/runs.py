"""Runs: one character, or one unit of text, written many times in a row. A translation that
holds a run its source does not ("Professssssor", "the the the the") has degenerated; the
search's ``max_repeat_run`` guard (``decode/repetition.py``) keeps them out, and the checks
here count them in the tests and benchmarks.

A run is a unit (one character or more, starting with a non-space) repeated at least
:data:`RUN_LENGTH` times, repeats apart by whitespace or none. Digits never run: a number's
zeros are not a stutter, and "1万" is rightly "10000". The source holds a run when it holds the
same unit as many times in a row, as written or in its NFKC form.
"""

from __future__ import annotations

import re
import unicodedata

RUN_LENGTH = 4  # a unit written this many times in a row: degenerate
WORD_START = "\u2581"  # SentencePiece's mark of a word's start: a space
NUMERIC = re.compile(r"[\d.,\s]*")  # digits and their separators


def runs_char(char: str) -> bool:
    """Whether ``char`` counts towards a run of one character: not a space, a word start or a
    digit."""
    return not (char.isspace() or char == WORD_START or char.isdigit())


def is_number(unit: str) -> bool:
    """Whether ``unit`` is part of a number: digits and their separators only, a digit among
    them."""
    return NUMERIC.fullmatch(unit) is not None and any(c.isdigit() for c in unit)


def repeated(n: int = RUN_LENGTH) -> re.Pattern[str]:
    """The pattern of a unit written ``n`` or more times in a row (group 1: the unit)."""
    return re.compile(rf"(\S.*?)(?:\s*\1){{{n - 1},}}")


def holds_run(text: str, unit: str, n: int = RUN_LENGTH) -> bool:
    """Whether ``text``, as written or in its NFKC form ("……" holds six dots), holds ``unit``
    ``n`` times in a row (whitespace between allowed)."""
    run = re.compile(rf"(?:{re.escape(unit)}\s*){{{n - 1}}}{re.escape(unit)}")
    return any(run.search(form) for form in (text, unicodedata.normalize("NFKC", text)))


def degenerate_runs(output: str, source: str, n: int = RUN_LENGTH) -> list[str]:
    """The runs of ``n`` or more repeats in ``output`` that ``source`` does not hold, as written
    in ``output`` (none: not degenerate)."""
    found = []
    for match in repeated(n).finditer(output):
        unit = match.group(1)
        if is_number(unit) or (len(unit) == 1 and not runs_char(unit)):
            continue
        if not holds_run(source, unit, n):
            found.append(match.group())
    return found


def degenerate(output: str, source: str, n: int = RUN_LENGTH) -> bool:
    """Whether ``output`` holds a run of ``n`` repeats that ``source`` does not."""
    return bool(degenerate_runs(output, source, n))

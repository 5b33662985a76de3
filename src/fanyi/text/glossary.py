"""A user's glossary: terms and their translations, held to in every translation whose source
holds a term, both ways.

A glossary is a TSV file of ``term<TAB>translation`` lines (``--glossary FILE``; blank lines and
lines starting with ``#`` are skipped), or over HTTP and in the API a list of [term,
translation] pairs. Each pair works both ways: into English a Chinese term is held to its
English, into Chinese an English term to its Chinese. A pair in one script ("GitHub<TAB>GitHub")
is copied as written either way; a pair of two Chinese terms serves no direction and is skipped.

A term is found as written; a Latin term only as whole words ("API" is not in "APIs"), and
also with its first letter capitalised (a sentence's first word). The longest term wins where
two overlap. A translation that misses a term is searched again, held to the terms of its
sentence (``decode/constraints.py``); a term the search still cannot place (a held search that
fails, a sentence cut in pieces, sampling, an engine without lexical constraints) is reported
in the translation's ``unplaced`` and on stderr by ``fanyi translate``, never dropped silently.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..inputs import read_text
from .lang import CHINESE, TRADITIONAL, has_han, to_traditional
from .transform import Context, Held, Option, Transform

MAX_BYTES = 8 << 20  # a glossary file
WORD_END = r"(?![A-Za-z0-9_])"
Pair = tuple[str, str]


@dataclass(frozen=True, repr=False)
class Glossary:
    """A user's (term, translation) pairs, in the order given."""

    pairs: tuple[Pair, ...] = ()

    def __str__(self) -> str:
        n = len(self.pairs)
        return f"{n} term{'s' * (n != 1)}" if n else "none"

    __repr__ = __str__  # as the flags' help and TextOptions name it

    def oriented(self, source: str, to: str) -> list[Pair]:
        """The (source term, target term) pairs that apply from ``source`` into ``to``, longest
        first: each pair either way round, where a term in English holds no Han character
        (Chinese text may hold a Latin term)."""
        found = dict.fromkeys(
            (a, b)
            for term, translation in self.pairs
            for a, b in ((term, translation), (translation, term))
            if _fits(a, source) and _fits(b, to)
        )
        return sorted(found, key=lambda pair: -len(pair[0]))


def _fits(term: str, lang: str) -> bool:
    """Whether text in ``lang`` may hold ``term``: Chinese any, another language no Han."""
    return lang == CHINESE or not has_han(term)


def read_glossary(value: object) -> Glossary:
    """A glossary from ``value``: a Glossary, a TSV file's path, a mapping of terms to their
    translations or a list of [term, translation] pairs (None or "": none). A ValueError names
    a line or pair that is not two terms."""
    if value is None or value == "":
        return Glossary()
    if isinstance(value, Glossary):
        return value
    if isinstance(value, (str, os.PathLike)):
        return Glossary(tuple(_tsv_pairs(str(value))))
    if isinstance(value, Mapping):
        value = list(value.items())
    if not isinstance(value, Sequence):
        raise ValueError(f"glossary must be a TSV file or a list of pairs, not {value!r}")
    return Glossary(tuple(_checked(pair, f"glossary pair {n}") for n, pair in enumerate(value, 1)))


def _tsv_pairs(path: str) -> list[Pair]:
    """The pairs of glossary file ``path``: one ``term<TAB>translation`` a line."""
    pairs = []
    for number, line in enumerate(read_text(path, MAX_BYTES).splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            pairs.append(_checked(line.split("\t"), f"{path}:{number}"))
    return pairs


def _checked(pair: object, where: str) -> Pair:
    """``pair`` as two stripped terms, or a ValueError naming ``where``."""
    cells = list(pair) if isinstance(pair, (list, tuple)) else []
    terms = [cell.strip() for cell in cells if isinstance(cell, str)]
    if len(cells) != 2 or len(terms) != 2 or not all(terms):
        raise ValueError(f"{where}: a glossary entry is a term and its translation (TAB between)")
    return terms[0], terms[1]


def found_in(text: str, pairs: list[Pair]) -> list[Pair]:
    """The pairs of ``pairs`` (longest term first) whose source term ``text`` holds, each once;
    a term inside a longer one found is not found again."""
    found, rest = [], text
    for term, target in pairs:
        pattern = _pattern(term)
        if pattern.search(rest):
            found.append((term, target))
            rest = pattern.sub(" ", rest)
    return found


def _span(term: str, text: str) -> str:
    """``term`` as ``text`` writes it (its first letter capitalised, maybe)."""
    match = _pattern(term).search(text)
    return match.group() if match else term


@functools.lru_cache(maxsize=4096)
def _pattern(term: str) -> re.Pattern[str]:
    """``term`` as written (with its first letter capitalised too), a Latin word whole."""
    first = re.escape(term[0])
    if term[0].isalpha() and term[0].upper() != term[0]:
        first = f"[{re.escape(term[0])}{re.escape(term[0].upper())}]"
    start = r"(?<![A-Za-z0-9_])" if re.match(r"\w", term[0]) else ""
    end = WORD_END if re.match(r"\w", term[-1]) else ""
    return re.compile(start + first + re.escape(term[1:]) + end)


def written(term: str, context: Context) -> set[str]:
    """The ways a translation may hold ``term`` once written back: as given, normalised (NFKC),
    in the Chinese script asked for."""
    forms = {term, unicodedata.normalize("NFKC", term)}
    script = context.options.chinese_script
    if context.to == CHINESE and script in TRADITIONAL:
        forms |= {to_traditional(form, script) for form in forms}
    return forms


class Terms(Transform):
    """``glossary``: a user's terms held to their translations, each one the translation
    cannot place reported."""

    name = "glossary"
    options = (
        Option(
            "glossary",
            Glossary(),
            "a user's terms held to their translations, both ways (TSV: term<TAB>translation; "
            "HTTP: a list of [term, translation] pairs); one not placed is reported",
            read=read_glossary,
            values="a TSV file",
            json=list[tuple[str, str]],
        ),
    )

    def read(self, text: str, context: Context) -> tuple[str, list[Pair]]:
        pairs = context.options.glossary.oriented(context.source, context.to)
        return text, found_in(text, pairs) if pairs else []

    def held(self, sentence: str, memo: list[Pair], context: Context) -> Held:
        found = found_in(sentence, memo) if memo else []
        return [(_span(term, sentence), target) for term, target in found]

    def unplaced(self, translation: str, memo: list[Pair], context: Context) -> Held:
        return [
            (term, target)
            for term, target in memo
            if not any(placed(form, translation) for form in written(target, context))
        ]


def placed(target: str, translation: str) -> bool:
    """Whether ``translation`` writes ``target``: a Latin one as whole words, its first letter
    capitalised or not (and with a plural -s or -es: "functions" for "function"; not
    "functional"), as the held search writes it."""
    if not re.match(r"\w", target[-1]) or not target.isascii():
        return target in translation
    whole = _pattern(target).pattern.removesuffix(WORD_END)
    return re.search(whole + r"(?:e?s)?" + WORD_END, translation) is not None

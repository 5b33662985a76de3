"""Gettext catalogues (``.po``) → English–Chinese pairs of the text a reader sees.

Documentation projects translate page by page through Sphinx's gettext catalogues: each entry
pairs a paragraph (``msgid``) with its translation (``msgstr``). :func:`po_pairs` keeps the
entries that are real translations into Chinese, renders their reST markup
(:mod:`fanyi.text.markup`) and cuts a paragraph into sentence pairs where both sides hold the
same number of sentences (a paragraph pair otherwise). :class:`PoReport` counts what was kept
and why the rest was dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import polib

from ...text.lang import has_han, split_sentences
from ...text.markup import is_code_only, plain_text

REASONS = ("obsolete", "fuzzy", "untranslated", "plural", "code_only", "not_chinese", "empty")
NO_CUT = 1 << 30  # sentences are never cut at semicolons here: both sides must match as written


@dataclass
class PoReport:
    """Entries read, pairs kept (sentence pairs cut from paragraphs counted apart) and entries
    dropped by reason."""

    entries: int = 0
    kept: int = 0
    sentence_pairs: int = 0
    dropped: Counter[str] = field(default_factory=Counter)

    def add(self, other: PoReport) -> None:
        self.entries += other.entries
        self.kept += other.kept
        self.sentence_pairs += other.sentence_pairs
        self.dropped.update(other.dropped)

    def to_dict(self) -> dict[str, object]:
        dropped = {reason: self.dropped[reason] for reason in REASONS if self.dropped[reason]}
        return {
            "entries": self.entries,
            "kept": self.kept,
            "sentence_pairs": self.sentence_pairs,
            "dropped": dropped,
        }


def drop_reason(entry: polib.POEntry) -> str | None:
    """Why ``entry`` is no translation to learn from, or None."""
    if entry.obsolete:
        return "obsolete"
    if entry.fuzzy:
        return "fuzzy"
    if entry.msgid_plural:
        return "plural"
    if not entry.msgstr.strip() or entry.msgstr.strip() == entry.msgid.strip():
        return "untranslated"
    if is_code_only(entry.msgid):
        return "code_only"
    if not has_han(entry.msgstr):
        return "not_chinese"
    return None


def aligned_sentences(english: str, chinese: str) -> list[tuple[str, str]]:
    """The paragraph pair cut into sentence pairs when both sides have as many sentences;
    else the paragraph pair itself."""
    en, zh = split_sentences(english, "en", NO_CUT), split_sentences(chinese, "zh", NO_CUT)
    if len(en) == len(zh) > 1:
        return list(zip(en, zh, strict=True))
    return [(english, chinese)]


def po_pairs(text: str, report: PoReport) -> Iterator[tuple[str, str]]:
    """(English, Chinese) pairs of catalogue ``text`` (the contents of a .po file), in order;
    ``report`` counts them and the entries dropped."""
    for entry in polib.pofile(text):
        if not entry.msgid:  # the header
            continue
        report.entries += 1
        reason = drop_reason(entry)
        english, chinese = plain_text(entry.msgid), plain_text(entry.msgstr)
        if reason is None and not (english and chinese):
            reason = "empty"
        if reason is not None:
            report.dropped[reason] += 1
            continue
        pairs = aligned_sentences(english, chinese)
        report.kept += 1
        report.sentence_pairs += len(pairs) if len(pairs) > 1 else 0
        yield from pairs

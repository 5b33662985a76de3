"""A gettext catalogue (``.po``) translated: its untranslated entries filled by a translator, for
a person to review.

Documentation projects translate page by page through Sphinx's catalogues, where each entry
pairs a paragraph of reStructuredText (``msgid``) with its translation (``msgstr``). An entry
with no translation yet is translated as written, its inline code read bare and quoted again by
the translator (``keep_code``), which copies roles and literals as written; the translation is
then made valid reST again (:func:`fanyi.text.markup.mend`: the spans it holds set apart by spaces
from Han characters, a literal block's ``::`` kept) and flagged ``fuzzy``, gettext's mark for a
translation to be checked, so that Sphinx keeps showing the English until someone has. Entries
already translated, fuzzy, obsolete or without prose (code, a literal block, nothing outside
markup) stay as they are, and so does one whose translation lost a format placeholder (``%s``,
``%1$s``, ``{name}``), failed, or holds a character the catalogue's charset lacks (Chinese in a
Latin-1 catalogue): a wrong placeholder breaks the program that formats it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass

import polib

from .text.markup import Rendered, is_code_only, mend, render
from .translate.translation import Translation
from .translate.translator import Translator

FORMATS = ("python-format", "c-format", "python-brace-format")
# printf's (C, Python: %s, %(name)d, %1$s, %-5.2lf) and str.format's ({0}, {name})
_PLACEHOLDER = re.compile(
    r"%(?:\d+\$)?(?:\([^)]*\))?[-#0 +']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?"
    r"[a-zA-Z%]|\{[^{}\s]*\}"
)


@dataclass
class CatalogueReport:
    """What became of a catalogue's entries: filled (and how many of their inline markup spans
    the translations hold as written), or left as they were and why."""

    entries: int = 0
    filled: int = 0
    translated_already: int = 0
    fuzzy_or_obsolete: int = 0
    code_only: int = 0
    placeholders_lost: int = 0
    outside_charset: int = 0  # a translation the catalogue's charset cannot hold (Latin-1)
    failed: int = 0
    spans: int = 0
    spans_held: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def left_as_is(entry: polib.POEntry) -> str | None:
    """Why ``entry`` is not for filling (a CatalogueReport field), or None."""
    if entry.obsolete or entry.fuzzy:
        return "fuzzy_or_obsolete"
    if entry.translated():
        return "translated_already"
    if is_code_only(entry.msgid) or "\n" in entry.msgid or markup_only(render(entry.msgid)):
        return "code_only"  # a literal block keeps its lines; a paragraph's are joined
    return None


def markup_only(rendered: Rendered) -> bool:
    """Whether all the letters ``rendered`` shows are inside its markup (``|func-str|_``,
    ``:ref:`the tutorial <tut>```): nothing of the text around it to translate."""
    rest = rendered.shown
    for _, shown in rendered.spans:
        rest = rest.replace(shown, " ", 1)
    return not any(c.isalpha() for c in rest)


def sources_of(entry: polib.POEntry) -> list[str]:
    """The texts ``entry`` needs translated: its ``msgid``, and its ``msgid_plural`` if any."""
    return [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]


def placeholders(text: str) -> list[str]:
    """The printf- and brace-style placeholders of ``text``, sorted."""
    return sorted(_PLACEHOLDER.findall(text))


def fill(
    catalogue: polib.POFile,
    translator: Translator,
    to: str | None,
    each: Callable[[Translation], None] = lambda translation: None,
) -> CatalogueReport:
    """Translate the untranslated entries of ``catalogue`` into ``to`` (None: detected per
    text) in place, each flagged ``fuzzy``; what became of every entry. ``each`` is called with
    every translation as it comes (a progress bar)."""
    report = CatalogueReport(entries=len(catalogue))
    todo = []
    for entry in catalogue:
        reason = left_as_is(entry)
        if reason is None:
            todo.append(entry)
        else:
            setattr(report, reason, getattr(report, reason) + 1)
    texts = [text for entry in todo for text in sources_of(entry)]
    translations = list(map(_passed(each), translator.stream(texts, to)))
    found = iter(zip(map(render, texts), translations, strict=True))
    for entry in todo:
        parts = [next(found) for _ in sources_of(entry)]
        written = [_written(r, t.text, report) if t.error is None else None for r, t in parts]
        _fill_entry(entry, written, report, catalogue.encoding or "utf-8")
    return report


def _passed(each: Callable[[Translation], None]) -> Callable[[Translation], Translation]:
    """``each`` as a step that hands its translation on."""

    def step(translation: Translation) -> Translation:
        each(translation)
        return translation

    return step


def _written(rendered: Rendered, translation: str, report: CatalogueReport) -> str:
    """``translation`` made valid reST (``rendered``: its source), its spans counted."""
    text, held = mend(translation, rendered)
    report.spans += len(rendered.spans)
    report.spans_held += held
    return text


def _fill_entry(
    entry: polib.POEntry, written: list[str | None], report: CatalogueReport, encoding: str
) -> None:
    """Set ``entry``'s translation (one text, or the singular and plural ones) and flag it,
    unless it failed, lost a placeholder or is not in the catalogue's charset ``encoding``."""
    if any(text is None for text in written):
        report.failed += 1
        return
    texts: list[str] = [t for t in written if t is not None]
    if any(f in entry.flags for f in FORMATS) and any(
        placeholders(source) != placeholders(text)
        for source, text in zip(sources_of(entry), texts, strict=True)
    ):
        report.placeholders_lost += 1
        return
    if not all(_encodable(text, encoding) for text in texts):
        report.outside_charset += 1
        return
    if entry.msgid_plural:
        forms = sorted(entry.msgstr_plural) or [0]
        entry.msgstr_plural = {n: texts[min(n, 1)] for n in forms}
    else:
        entry.msgstr = texts[0]
    entry.flags.append("fuzzy")
    report.filled += 1


def _encodable(text: str, encoding: str) -> bool:
    """Whether ``text`` can be written in charset ``encoding``."""
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True

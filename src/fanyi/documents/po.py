"""A gettext catalogue (``.po``, ``.pot``) as a document: its untranslated entries filled by a
translator, for a person to review (``fanyi po``, ``fanyi translate FILE.po``).

Documentation projects translate page by page through Sphinx's catalogues, where each entry
pairs a paragraph of reStructuredText (``msgid``) with its translation (``msgstr``). An entry
with no translation yet is one segment per text (its ``msgid``, and its ``msgid_plural``), read
by the model as written: its inline code read bare and quoted again by the translator
(``keep_code``), which copies roles and literals as written. The translation is then made valid
reST again (:func:`fanyi.text.markup.mend`: the spans it holds set apart by spaces from Han
characters, a literal block's ``::`` kept) and flagged ``fuzzy``, gettext's mark for a translation
to be checked, so that Sphinx keeps showing the English until someone has. Entries already
translated, fuzzy, obsolete or without prose (code, a literal block, nothing outside markup) stay
as they are, and so does one whose translation lost a format placeholder (``%s``, ``%1$s``,
``{name}``), failed, or holds a character the catalogue's charset lacks (Chinese in a Latin-1
catalogue): a wrong placeholder breaks the program that formats it. The file is written back by
``po_file.py``: only the entries filled change.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field

import polib

from ..text.markup import Rendered, is_code_only, mend, render
from ..translate.translation import Translation
from ..translate.translator import Translator
from .api import target_for
from .po_file import CatalogueFile, parsed, read_catalogue, written_back
from .segment import Segment, Text
from .translating import translate_document

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


@dataclass
class Catalogue:
    """A catalogue read as a document: one segment per text of the entries ``todo`` (a msgid,
    and a msgid_plural). ``write`` fills copies of them and writes the file (``found``, where it
    was read from one) with those and the entries ``earlier`` parts filled (:meth:`then`);
    ``filled`` and ``report`` are what its last call made of them, the entries left as they
    are counted in ``report`` from the start."""

    catalogue: polib.POFile
    todo: list[polib.POEntry]
    report: CatalogueReport
    found: CatalogueFile | None = None
    earlier: list[Filled] = field(default_factory=list)
    filled: list[Filled] = field(init=False)
    segments: list[Segment] = field(init=False)
    _before: CatalogueReport = field(init=False, repr=False)  # the report as given

    def __post_init__(self) -> None:
        self.segments = [(Text(text),) for entry in self.todo for text in sources_of(entry)]
        self.filled, self._before = list(self.earlier), dataclasses.replace(self.report)

    @property
    def language(self) -> str:
        """The catalogue's ``Language`` header, its code before ``_`` or ``-`` (``zh_CN``: zh)."""
        code = self.catalogue.metadata.get("Language", "")
        return code.replace("-", "_").split("_")[0].lower()

    def escape(self, text: str) -> str:
        return text  # a msgstr holds reST as written; polib escapes it for the file

    def then(self, entries: list[polib.POEntry]) -> Catalogue:
        """The catalogue with ``entries`` (of ``todo``) to fill next, after what this filled."""
        return Catalogue(self.catalogue, entries, self.report, self.found, self.filled)

    def write(self, translations: list[str | None], to: str) -> bytes:
        """The file with each entry's translations (one per segment; None: failed) filled."""
        self.report = dataclasses.replace(self._before)
        found, filled = iter(translations), []
        for entry in self.todo:
            written = [self._written(text, next(found)) for text in sources_of(entry)]
            new = _filled(entry, written, self.report, self.catalogue.encoding or "utf-8")
            if new is not None:
                filled.append(Filled(entry, new))
        self.filled = [*self.earlier, *filled]
        if self.found is None:
            return b""
        new_entries = [done.new for done in self.filled]
        return written_back(self.found, new_entries).encode(self.found.encoding)

    def _written(self, source: str, translation: str | None) -> str | None:
        """``translation`` of ``source`` made valid reST, its spans counted (None: failed)."""
        if translation is None:
            return None
        rendered = render(source)
        text, held = mend(translation, rendered)
        self.report.spans += len(rendered.spans)
        self.report.spans_held += held
        return text


@dataclass(frozen=True)
class Filled:
    """An entry of the catalogue as read (``entry``), and a copy of it filled (``new``)."""

    entry: polib.POEntry
    new: polib.POEntry

    def apply(self) -> None:
        """Fill ``entry`` itself as ``new`` is."""
        self.entry.msgstr, self.entry.msgstr_plural = self.new.msgstr, self.new.msgstr_plural
        self.entry.flags = self.new.flags


def read(data: bytes, name: str) -> Catalogue:
    """The catalogue in ``data`` (the file called ``name``) as a document."""
    return to_fill(parsed(data, name))


def read_file(path: str) -> Catalogue:
    """The catalogue in file ``path`` as a document."""
    return to_fill(read_catalogue(path))


def to_fill(found: CatalogueFile | polib.POFile) -> Catalogue:
    """A catalogue (read from its file, or parsed) as a document: its entries to fill, and the
    report counting those left as they are."""
    catalogue = found.catalogue if isinstance(found, CatalogueFile) else found
    report = CatalogueReport(entries=len(catalogue))
    todo = []
    for entry in catalogue:
        reason = left_as_is(entry)
        if reason is None:
            todo.append(entry)
        else:
            setattr(report, reason, getattr(report, reason) + 1)
    return Catalogue(catalogue, todo, report, found if isinstance(found, CatalogueFile) else None)


def fill(
    catalogue: polib.POFile,
    translator: Translator,
    to: str | None,
    each: Callable[[Translation], None] = lambda translation: None,
) -> CatalogueReport:
    """Translate the untranslated entries of ``catalogue`` into ``to`` (None:
    :func:`~fanyi.documents.api.target_for`) in place, each flagged ``fuzzy``; what became of
    every entry. ``each`` is called with every translation as it comes (a progress bar)."""
    document = to_fill(catalogue)
    translate_document(document, translator, to or target_for(document, translator), each)
    for done in document.filled:
        done.apply()
    return document.report


def filled_in_parts(
    document: Catalogue,
    translator: Translator,
    to: str,
    size: int,
    each: Callable[[Translation], None] = lambda translation: None,
) -> Iterator[tuple[bytes, CatalogueReport]]:
    """The file's bytes, and the report, after each ``size`` entries of ``document`` are filled
    (once, as read, where it has none to fill), so that a caller can keep each part done."""
    part = document
    for start in range(0, max(len(document.todo), 1), size):
        part = part.then(document.todo[start : start + size])
        data, _ = translate_document(part, translator, to, each)
        yield data, part.report


def _filled(
    entry: polib.POEntry, written: list[str | None], report: CatalogueReport, encoding: str
) -> polib.POEntry | None:
    """A copy of ``entry`` with its translation (one text, or the singular and plural ones),
    flagged fuzzy; None where it failed, lost a placeholder or is not in the catalogue's charset
    ``encoding``."""
    if any(text is None for text in written):
        report.failed += 1
        return None
    texts: list[str] = [t for t in written if t is not None]
    if any(f in entry.flags for f in FORMATS) and any(
        placeholders(source) != placeholders(text)
        for source, text in zip(sources_of(entry), texts, strict=True)
    ):
        report.placeholders_lost += 1
        return None
    if not all(_encodable(text, encoding) for text in texts):
        report.outside_charset += 1
        return None
    new = copy.copy(entry)
    if entry.msgid_plural:
        forms = sorted(entry.msgstr_plural) or [0]
        new.msgstr_plural = {n: texts[min(n, 1)] for n in forms}
    else:
        new.msgstr = texts[0]
    new.flags = [*entry.flags, "fuzzy"]
    report.filled += 1
    return new


def _encodable(text: str, encoding: str) -> bool:
    """Whether ``text`` can be written in charset ``encoding``."""
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True

"""XLIFF 1.2 and 2.0 (parsed by lxml): each translation unit without a translation gets one, its
inline codes (``<g>``, ``<x/>``, ``<ph>``, ``<pc>``…) and placeholders (``%name%``, ``{name}``,
ICU plurals, as in ``messages.py``) kept; a unit already translated, or marked
``translate="no"``, is left as it was. A filled target is marked for review (1.2:
``state="needs-review-translation"``; 2.0: its segment's ``state="translated"``), as ``fanyi po``
flags an entry fuzzy, and the file's target language is set where it has none.

lxml reads the file and says which sources to translate; the writer finds each ``<source>`` (and
its empty ``<target>``) in the file's own text, in document order, and writes only the targets and
those attributes: every other byte stays as it was.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from lxml import etree

from .compose import written
from .document import Source, decoded
from .messages import Template, filled, template
from .segment import Segment

V12, V20 = "urn:oasis:names:tc:xliff:document:1.2", "urn:oasis:names:tc:xliff:document:2.0"
_PREFIX = r"(?:[\w.-]+:)?"
_NAME_END = r"(?=[\s/>])"
_SOURCE = re.compile(
    rf"<({_PREFIX})source{_NAME_END}[^>]*?(?:/>|>.*?</{_PREFIX}source\s*>)", re.DOTALL
)
_TARGET = re.compile(
    rf"\s*<{_PREFIX}target{_NAME_END}([^>]*?)(?:/>|>.*?</{_PREFIX}target\s*>)", re.DOTALL
)
_START = {
    name: re.compile(rf"<{_PREFIX}{name}{_NAME_END}[^>]*>") for name in ("xliff", "file", "segment")
}
REVIEW = "needs-review-translation"  # XLIFF 1.2's state of a target a person should check
UNTRANSLATED = ("new", "needs-translation")  # 1.2's states of a target not translated yet


@dataclass
class Unit:
    """A source to translate: its place among the file's sources, the whitespace after it, and
    its content as a template around its messages."""

    index: int
    tail: str
    parts: Template
    segment: int  # 2.0: the index of its <segment> among the file's; -1 in 1.2


class XliffDocument:
    """An XLIFF file: the units to fill, their messages the segments."""

    def __init__(
        self, source: Source, version: str, units: list[Unit], segments: list[Segment]
    ) -> None:
        self.source, self.version, self.units, self.segments = source, version, units, segments
        self.sources = [written(s, self.escape) for s in segments]  # a message left as it was

    def escape(self, text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    def write(self, translations: list[str | None], to: str) -> bytes:
        text = self.source.text
        sources = list(_SOURCE.finditer(text))
        edits: list[tuple[int, int, str]] = []
        segments = list(_START["segment"].finditer(text))
        for unit in self.units:
            if not any(isinstance(p, int) and translations[p] is not None for p in unit.parts):
                continue
            content = filled(unit.parts, translations, self.sources)
            edits.append(self._target(text, sources[unit.index], unit, content))
            if self.version == V20 and unit.segment >= 0:
                found = segments[unit.segment]
                edits.append((*found.span(), _attribute(found.group(), "state", "translated")))
        if edits:
            edits.append(self._language(text, to))
        out, at = [], 0
        for start, end, replacement in sorted(e for e in edits if e[0] >= 0):
            out += [text[at:start], replacement]
            at = end
        return self.source.encode("".join([*out, text[at:]]))

    def _target(
        self, text: str, source: re.Match[str], unit: Unit, content: str
    ) -> tuple[int, int, str]:
        """The edit that writes ``content`` as the unit's target: the target it has (empty, or
        marked as still to translate) replaced, or a new one after its source."""
        prefix = source.group(1)
        old = _TARGET.match(text, source.end())
        opening = f"<{prefix}target{old.group(1) if old else ''}>"
        opening = _attribute(opening, "state", REVIEW) if self.version == V12 else opening
        new = f"{opening}{content}</{prefix}target>"
        if old is None:
            return source.end(), source.end(), unit.tail + new
        lead = old.group()[: len(old.group()) - len(old.group().lstrip())]
        return source.end(), old.end(), lead + new

    def _language(self, text: str, to: str) -> tuple[int, int, str]:
        """The edit that names the target language where the file has none (or no edit)."""
        name, attribute = (
            ("file", "target-language") if self.version == V12 else ("xliff", "trgLang")
        )
        found = _START[name].search(text)
        if found is None or re.search(rf"\s{attribute}\s*=", found.group()):
            return -1, -1, ""
        return found.start(), found.end(), _attribute(found.group(), attribute, to)


def read(data: bytes, name: str) -> XliffDocument:
    """The units of XLIFF file ``data`` that have no translation yet."""
    source = decoded(data, name)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(source.text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as error:
        raise ValueError(f"{name}: not XML: {str(error).splitlines()[0]}") from None
    if root.tag not in (f"{{{V12}}}xliff", f"{{{V20}}}xliff"):
        raise ValueError(f"{name}: not XLIFF 1.2 or 2.0 (its root is {root.tag})")
    ns = root.tag[1:].split("}")[0]
    all_sources = list(root.iter(f"{{{ns}}}source"))
    segment_index = {e: i for i, e in enumerate(root.iter(f"{{{ns}}}segment"))}
    written_segments = len(_START["segment"].findall(source.text))
    if len(all_sources) != len(_SOURCE.findall(source.text)) or (
        ns == V20 and len(segment_index) != written_segments
    ):
        raise ValueError(f"{name}: its <source> elements are not all found as written")
    units: list[Unit] = []
    segments: list[Segment] = []
    for index, element in enumerate(all_sources):
        after = element.getnext()
        target = after if after is not None and after.tag == f"{{{ns}}}target" else None
        if _translated(target) or any(e.get("translate") == "no" for e in element.iterancestors()):
            continue
        parts = template(_inner(element), segments, words=html.unescape)
        if any(isinstance(p, int) for p in parts):
            segment = segment_index.get(element.getparent(), -1)
            units.append(Unit(index, element.tail or "", parts, segment))
    return XliffDocument(source, ns, units, segments)


def _inner(element: etree._Element) -> str:
    """An element's content as XML: its text escaped, its children written as they are."""
    out = [_escaped(element.text or "")]
    for child in element:
        raw = etree.tostring(child, encoding="unicode", with_tail=False)
        out += [re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", raw), _escaped(child.tail or "")]
    return "".join(out)


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _translated(target: etree._Element | None) -> bool:
    """Whether a target holds a translation: text or inline codes, not marked as still to
    translate (1.2's ``state="new"`` or ``"needs-translation"``, the source copied there)."""
    if target is None or target.get("state") in UNTRANSLATED:
        return False
    return bool((target.text or "").strip()) or len(target) > 0


def _attribute(tag: str, name: str, value: str) -> str:
    """Start tag ``tag`` with attribute ``name`` set to ``value``."""
    quoted = value.replace("&", "&amp;").replace('"', "&quot;")
    pattern = re.compile(rf"(\s{re.escape(name)}\s*=\s*)(\"[^\"]*\"|'[^']*')")
    if pattern.search(tag):
        return pattern.sub(lambda m: f'{m.group(1)}"{quoted}"', tag, count=1)
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    return f'{tag[:end].rstrip()} {name}="{quoted}"{tag[end:]}'

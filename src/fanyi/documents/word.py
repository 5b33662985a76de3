"""Word documents (``.docx``, opened by python-docx): the paragraphs of the body, of tables
(nested ones too), text boxes, headers and footers translated, each run's formatting (bold,
italic, a character style, a colour) kept on the words it marked and each hyperlink around the
words it linked; styles, sections, images and every other part of the package as they were.

A paragraph's runs are read as pieces: the words in its most common formatting are text, words
in any other formatting a wrap (``segment.Wrap``) whose markers stand for that formatting, a
hyperlink a wrap around its runs, a tab, a break, an image or a field held as it was. The
translation is written back as runs again, each with a copy of the formatting its marker names.
A paragraph holding tracked changes, content controls, fields written inline or equations is
left as it was.
"""

from __future__ import annotations

import copy
import io
import zipfile
from dataclasses import dataclass, field
from typing import Any

from docx import Document as open_docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from lxml import etree

from .segment import Held, Piece, Segment, Text, Wrap, has_words

_FORMAT, _END, _LINK, _LINK_END, _HELD = 0xE000, 0xE400, 0xE800, 0xEBFF, 0xEC00
_SKIP = {qn(n) for n in ("w:ins", "w:del", "w:sdt", "w:fldSimple", "w:smartTag", "w:customXml")}
_MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_IGNORED = {qn(n) for n in ("w:pPr", "w:proofErr", "w:lastRenderedPageBreak")}
_PARTS = ("/word/document.xml", "/word/header", "/word/footer")
_ANCHORS = {
    qn(f"w:{name}{end}")
    for name in ("bookmark", "commentRange", "perm")
    for end in ("Start", "End")
}


@dataclass
class Paragraph:
    """A paragraph's element and what its markers stand for: run formattings, hyperlinks and
    held elements, by index."""

    element: etree._Element
    formats: list[etree._Element | None] = field(default_factory=list)  # a w:rPr, or none
    links: list[etree._Element] = field(default_factory=list)
    held: list[etree._Element] = field(default_factory=list)
    anchors: tuple[list[etree._Element], list[etree._Element]] = ([], [])  # starts, ends
    base: int = 0  # the formatting of plain text
    segment: Segment = ()
    part: str = ""  # the name of the package part that holds it


class WordDocument:
    """A .docx package: its paragraphs with words, each one segment, and the parts that hold
    them."""

    def __init__(self, data: bytes, parts: dict[str, Any], paragraphs: list[Paragraph]) -> None:
        self.data, self.parts, self.paragraphs = data, parts, paragraphs
        self.segments: list[Segment] = [p.segment for p in paragraphs]

    def escape(self, text: str) -> str:
        return text

    def write(self, translations: list[str | None], to: str) -> bytes:
        """The package with its rewritten parts, every other member copied byte for byte."""
        changed = set()
        for paragraph, translation in zip(self.paragraphs, translations, strict=True):
            if translation is not None:
                _rewrite(paragraph, translation)
                changed.add(paragraph.part)
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(self.data)) as source, zipfile.ZipFile(out, "w") as target:
            for item in source.infolist():
                name = "/" + item.filename
                data = self.parts[name].blob if name in changed else source.read(item)
                target.writestr(item, data)
        return out.getvalue()


def read(data: bytes, name: str) -> WordDocument:
    """The paragraphs with words of Word file ``data``."""
    try:
        package = open_docx(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, etree.XMLSyntaxError):
        raise ValueError(f"{name}: not a Word (.docx) file fanyi reads") from None
    parts: dict[str, Any] = {}
    paragraphs: list[Paragraph] = []
    for part in package.part.package.iter_parts():
        partname = str(part.partname)
        if not partname.startswith(_PARTS) or not hasattr(part, "element"):
            continue
        parts[partname] = part
        for element in part.element.iter(qn("w:p")):
            found = _paragraph(element)
            if found is not None and has_words(found.segment):
                found.part = partname
                paragraphs.append(found)
    return WordDocument(data, parts, paragraphs)


def _paragraph(element: etree._Element) -> Paragraph | None:
    """A paragraph's pieces, or None where it holds what fanyi does not rewrite."""
    if any(e.tag in _SKIP or str(e.tag).startswith(_MATH) for e in element.iter()):
        return None
    paragraph = Paragraph(element, anchors=([], []))
    runs: list[tuple[str, etree._Element | None, int]] = []  # (text, its w:rPr, its link)
    for child in element:
        if child.tag in _IGNORED:
            continue
        if child.tag == qn("w:hyperlink"):
            paragraph.links.append(child)
            for run in child.iter(qn("w:r")):
                runs += _run(run, paragraph, len(paragraph.links) - 1)
        elif child.tag == qn("w:r"):
            runs += _run(child, paragraph, -1)
        elif child.tag in _ANCHORS:  # a bookmark's or a comment's end: around the paragraph
            paragraph.anchors[str(child.tag).endswith("End")].append(child)
        else:
            runs.append(_held(child, paragraph, -1))
    paragraph.segment = _pieces(runs, paragraph)
    return paragraph


def _run(run: etree._Element, paragraph: Paragraph, link: int) -> list[tuple[str, object, int]]:
    """A run's texts, each with its formatting; a tab, break or image in it held."""
    style = run.find(qn("w:rPr"))
    out: list[tuple[str, object, int]] = []
    for child in run:
        if child.tag == qn("w:t"):
            out.append((child.text or "", style, link))
        elif child.tag not in _IGNORED and child.tag != qn("w:rPr"):
            holder = copy.deepcopy(run)
            for other in list(holder):
                if other.tag != qn("w:rPr"):
                    holder.remove(other)
            holder.append(copy.deepcopy(child))
            out.append(_held(holder, paragraph, link))
    return out


def _held(element: etree._Element, paragraph: Paragraph, link: int) -> tuple[str, object, int]:
    paragraph.held.append(element)
    return chr(_HELD + len(paragraph.held) - 1), "held", link


def _pieces(runs: list[tuple[str, object, int]], paragraph: Paragraph) -> Segment:
    """The runs as pieces: plain text in the most common formatting, wraps for the others and
    for hyperlinks, held elements as their markers."""
    keys = [_key(style) for _, style, _ in runs]
    lengths: dict[bytes, int] = {}
    outside = any(link < 0 and style != "held" for _, style, link in runs)
    for (text, style, link), key in zip(runs, keys, strict=True):
        if style != "held" and (link < 0 or not outside):  # a link's style is not the text's
            lengths[key] = lengths.get(key, 0) + len(text)
    base = max(lengths, key=lambda k: lengths[k]) if lengths else b""
    index: dict[bytes, int] = {}
    for (_, style, _), key in zip(runs, keys, strict=True):
        if style != "held" and key not in index:
            index[key] = len(paragraph.formats)
            paragraph.formats.append(style)
    paragraph.base = index.get(base, 0)
    out: list[Piece] = []
    link_pieces: list[Piece] = []
    current = -1
    for (text, style, link), key in zip(runs, keys, strict=True):
        if link != current:
            _close_link(out, link_pieces, current)
            link_pieces, current = [], link
        target = link_pieces if link >= 0 else out
        if style == "held":
            target.append(Held(text))
        elif key == base:
            target.append(Text(text))
        else:
            mark = index[key]
            target.append(Wrap(chr(_FORMAT + mark), chr(_END + mark), (Text(text),)))
    _close_link(out, link_pieces, current)
    return _merged(tuple(out))


def _close_link(out: list[Piece], pieces: list[Piece], link: int) -> None:
    if link >= 0:
        out.append(Wrap(chr(_LINK + link), chr(_LINK_END), _merged(tuple(pieces))))


def _merged(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Neighbouring texts joined, and neighbouring wraps of one formatting."""
    out: list[Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        if isinstance(piece, Text) and isinstance(last, Text):
            out[-1] = Text(last.text + piece.text)
        elif isinstance(piece, Wrap) and isinstance(last, Wrap) and last.open == piece.open:
            out[-1] = Wrap(last.open, last.close, _merged(last.inner + piece.inner))
        else:
            out.append(piece)
    return tuple(out)


def _key(style: object) -> bytes:
    """What a run's formatting is, for comparing runs (its w:rPr without revision marks)."""
    if style is None or style == "held":
        return b""
    assert isinstance(style, etree._Element)
    return etree.tostring(style)


def _rewrite(paragraph: Paragraph, text: str) -> None:
    """Replace the paragraph's runs by ``text``'s: its markers read back as formattings,
    hyperlinks and held elements."""
    element = paragraph.element
    for child in list(element):
        if child.tag != qn("w:pPr"):
            element.remove(child)
    element.extend(paragraph.anchors[0])
    formats, link, parent = [paragraph.base], None, element
    buffer = ""
    for char in text + chr(_LINK_END):
        code = ord(char)
        if _FORMAT <= code < _LINK_END + 1 or _HELD <= code < _HELD + 0x400:
            if buffer:
                parent.append(
                    _new_run(buffer, paragraph.formats[formats[-1]] if paragraph.formats else None)
                )
                buffer = ""
        else:
            buffer += char
            continue
        if _FORMAT <= code < _END:
            formats.append(code - _FORMAT)
        elif _END <= code < _LINK:
            formats = formats[:-1] or [paragraph.base]
        elif _LINK <= code < _LINK_END:
            link = copy.copy(paragraph.links[code - _LINK])
            for child in list(link):
                link.remove(child)
            element.append(link)
            parent = link
        elif code == _LINK_END:
            parent = element
        else:
            parent.append(copy.deepcopy(paragraph.held[code - _HELD]))
    element.extend(paragraph.anchors[1])


def _new_run(text: str, style: etree._Element | None) -> etree._Element:
    """A run of ``text`` in formatting ``style``."""
    run = etree.Element(qn("w:r"))
    if style is not None:
        run.append(copy.deepcopy(style))
    t = etree.SubElement(run, qn("w:t"))
    t.text = text
    if text != text.strip():
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return run

"""Word documents (python-docx's own test files, tests/fixtures/documents/README.md): after a
translation by a stand-in translator (upper case) the package holds the same paragraphs, styles,
tables, headers, footers and hyperlinks, each run's formatting on the words it marked, and every
part without text (styles, settings, themes) byte for byte."""

import io
import zipfile
from pathlib import Path

import docx
import pytest

from fanyi.documents import word
from fanyi.documents.translating import translate_segments

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "documents"
NAMES = [
    "par-hyperlinks.docx",
    "hdr-header-footer.docx",
    "blk-paras-and-tables.docx",
    "run-char-style.docx",
]


def upper(texts: list[str]) -> list[str]:
    return [text.upper() for text in texts]


def translated(name: str) -> tuple[bytes, bytes]:
    data = (FIXTURES / name).read_bytes()
    document = word.read(data, name)
    translations, report = translate_segments(document.segments, upper, document.escape, "zh")
    assert report.failed == 0
    return data, document.write(translations, "zh")


def paragraphs(document) -> list:
    """Every paragraph of the body, the tables and the headers and footers."""
    found = list(document.paragraphs)
    for table in document.tables:
        found += [p for cell in table._cells for p in cell.paragraphs]
    for section in document.sections:
        found += section.header.paragraphs + section.footer.paragraphs
    return found


def shape(data: bytes) -> list[tuple]:
    """Each paragraph's style, its runs' character styles in order (repeats merged), its links'
    addresses, and whether it has text."""
    out = []
    for paragraph in paragraphs(docx.Document(io.BytesIO(data))):
        styles = [r.style.name for r in paragraph.runs if r.text.strip()]
        merged = [s for i, s in enumerate(styles) if i == 0 or styles[i - 1] != s]
        links = [link.address for link in paragraph.hyperlinks]
        out.append((paragraph.style.name, merged, links, bool(paragraph.text.strip())))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_word_file_keeps_its_structure_formatting_and_links(name):
    data, out = translated(name)
    assert shape(out) == shape(data)
    before, after = (
        paragraphs(docx.Document(io.BytesIO(data))),
        paragraphs(docx.Document(io.BytesIO(out))),
    )
    for old, new in zip(before, after, strict=True):
        assert new.text.upper() == new.text and new.text.replace(
            " ", ""
        ) == old.text.upper().replace(" ", "")


@pytest.mark.parametrize("name", NAMES)
def test_parts_without_text_are_written_byte_for_byte(name):
    data, out = translated(name)
    old, new = zipfile.ZipFile(io.BytesIO(data)), zipfile.ZipFile(io.BytesIO(out))
    assert sorted(old.namelist()) == sorted(new.namelist())
    for member in old.namelist():
        if not member.startswith(("word/document", "word/header", "word/footer", "docProps/")):
            assert new.read(member) == old.read(member), member


def test_headers_footers_and_table_cells_are_translated():
    _, out = translated("hdr-header-footer.docx")
    section = docx.Document(io.BytesIO(out)).sections[0]
    assert section.header.paragraphs[0].text == "HEADER FOR SECTION-1"
    assert section.footer.paragraphs[0].text.startswith("FOOTER FOR SECTION 1")
    _, out = translated("blk-paras-and-tables.docx")
    cells = [c.text for t in docx.Document(io.BytesIO(out)).tables for c in t._cells if c.text]
    assert cells and all(c == c.upper() for c in cells)


def test_a_bold_word_keeps_its_bold_where_the_translation_puts_it():
    made = docx.Document()
    paragraph = made.add_paragraph("Press ")
    paragraph.add_run("Save").bold = True
    paragraph.add_run(" to keep your work.")
    buffer = io.BytesIO()
    made.save(buffer)
    document = word.read(buffer.getvalue(), "made.docx")
    table = {"Press Save to keep your work.": "按保存以保留你的工作。", "Save": "保存"}
    translations, _ = translate_segments(
        document.segments, lambda texts: [table.get(t) for t in texts], document.escape, "zh"
    )
    runs = docx.Document(io.BytesIO(document.write(translations, "zh"))).paragraphs[0].runs
    assert [(r.text, r.bold) for r in runs] == [
        ("按", None),
        ("保存", True),
        ("以保留你的工作。", None),
    ]


@pytest.mark.parametrize("data", [b"not a zip", b"PK\x03\x04broken"])
def test_what_is_not_a_word_file_is_one_line(data):
    with pytest.raises(ValueError, match=r"^x\.docx: not a Word \(\.docx\) file fanyi reads$"):
        word.read(data, "x.docx")

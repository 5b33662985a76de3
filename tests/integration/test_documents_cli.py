"""``fanyi translate FILE -o OUT`` as a user calls it, on the tiny model: each format's real
fixture comes back translated with its structure, code, addresses and timings as they were; an
existing output, a bad file or a line-mode flag is one line and exit 2, with nothing written."""

import json
from pathlib import Path

import docx
import lxml.etree
import lxml.html
import pytest
import srt
import webvtt

from fanyi.cli import main
from fanyi.documents.markdown import parser
from tiny_translator import tiny_model_dir

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "documents"


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return str(tiny_model_dir(tmp_path_factory))


def translate(model_dir: str, *args: str) -> int:
    return main(["translate", "--threads", "1", "-m", model_dir, "--to", "zh", *args])


def blocks(text: str) -> list[tuple]:
    tokens = parser().parse(text)
    return [
        (t.type, t.tag, t.content if t.type == "fence" else "")
        for t in tokens
        if t.type != "inline"
    ]


def cues(text: str) -> list[tuple]:
    return [(c.index, c.start, c.end) for c in srt.parse(text)]


def captions(text: str) -> list[tuple]:
    return [
        (c.identifier, c.start, c.end, str(c.settings)) for c in webvtt.from_string(text).captions
    ]


def keys(text: str) -> object:
    def shape(value: object) -> object:
        return {k: shape(v) for k, v in value.items()} if isinstance(value, dict) else None

    return shape(json.loads(text))


def units(text: str) -> list[str]:
    root = lxml.etree.fromstring(text.encode())
    return [u.get("id") for u in root.iter("{*}trans-unit") if u.find("{*}source") is not None]


def tags(text: str) -> list[str]:
    return [str(e.tag) for e in lxml.html.document_fromstring(text.encode()).iter()]


@pytest.mark.parametrize(
    ("name", "structure"),
    [
        ("nanogpt-readme.md", blocks),
        ("sintel.en.srt", cues),
        ("styles2.vtt", captions),
        ("birdwatching.html", tags),
        ("react-icu.en.json", keys),
        ("angular-messages.xlf", units),
    ],
)
def test_each_format_comes_back_translated_with_its_structure(
    model_dir, tmp_path, capsys, name, structure
):
    source = (FIXTURES / name).read_text(encoding="utf-8")
    out = tmp_path / name
    status = translate(model_dir, str(FIXTURES / name), "-o", str(out))
    err = capsys.readouterr().err
    assert status in (0, 1) and "Traceback" not in err
    assert f"{out}: " in err and "into zh" in err
    written = out.read_text(encoding="utf-8")
    assert written != source
    assert structure(written) == structure(source)


def test_a_document_goes_to_stdout_without_an_output(model_dir, tmp_path, capsysbinary):
    page = tmp_path / "page.txt"
    page.write_text("Hello.\n\n  Good morning.\n", encoding="utf-8")
    assert translate(model_dir, str(page)) in (0, 1)
    lines = capsysbinary.readouterr().out.decode("utf-8").split("\n")
    assert len(lines) == 4 and lines[1] == "" and lines[2].startswith("  ") and lines[3] == ""


def one_line(err: str) -> str:
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_an_existing_output_is_replaced_only_with_overwrite(model_dir, tmp_path, capsys):
    out = tmp_path / "out.srt"
    out.write_text("mine\n", encoding="utf-8")
    fixture = str(FIXTURES / "sintel.en.srt")
    assert translate(model_dir, fixture, "-o", str(out)) == 2
    assert "exists; add --overwrite" in one_line(capsys.readouterr().err)
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert translate(model_dir, fixture, "-o", str(out), "--overwrite") in (0, 1)
    assert cues(out.read_text(encoding="utf-8")) == cues((FIXTURES / "sintel.en.srt").read_text())


@pytest.mark.parametrize(
    ("name", "data", "args", "says"),
    [
        ("bad.srt", b"1\nno timing here\n", (), "bad.srt: not a SubRip (.srt) file"),
        ("page.md", "caf\xe9".encode("latin-1"), (), "page.md: not UTF-8"),
        ("notes.rtf", b"{\\rtf1}", (), "notes.rtf: no document format reads .rtf"),
        ("a.md", b"# A\n", ("--text", "x"), "a document is translated whole; drop --text"),
        ("a.md", b"# A\n", ("--format", "rtf"), "no document format 'rtf'"),
    ],
)
def test_what_cannot_be_translated_is_one_line_and_nothing_is_written(
    model_dir, tmp_path, capsys, name, data, args, says
):
    (tmp_path / name).write_bytes(data)
    out = tmp_path / "out"
    assert translate(model_dir, str(tmp_path / name), "-o", str(out), *args) == 2
    assert says in one_line(capsys.readouterr().err)
    assert not out.exists()


def test_a_word_file_comes_back_with_its_paragraphs_and_links(model_dir, tmp_path, capsys):
    out = tmp_path / "out.docx"
    fixture = FIXTURES / "par-hyperlinks.docx"
    assert translate(model_dir, str(fixture), "-o", str(out)) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err

    def links(path: Path) -> list[list[str]]:
        return [[h.address for h in p.hyperlinks] for p in docx.Document(str(path)).paragraphs]

    assert links(out) == links(fixture)
    assert out.read_bytes() != fixture.read_bytes()

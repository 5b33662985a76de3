"""``fanyi po`` on catalogues as projects keep them: a real catalogue's diff touches only the
entries filled (the rest byte for byte, the file's own width kept); positional placeholders
(``%1$s``) held, so that gettext's ``msgfmt -c`` accepts the result; Latin-1 and GBK catalogues
read and written in their charset; an unclosed string, or a file whose content is a path, is a
one-line error."""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest

from fanyi.catalogue import fill, placeholders
from fanyi.catalogue_file import read_catalogue, written_back
from fanyi.cli import main
from tiny_translator import tiny_model_dir

SAMPLE = Path(__file__).parents[1] / "fixtures" / "data" / "python-docs" / "sample.po"
MSGFMT = shutil.which("msgfmt")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


def po(capsys, model_dir, source, output, *extra) -> dict:
    args = ["po", str(source), "-o", str(output), "-m", str(model_dir), "--threads", "1"]
    assert main([*args, "--dtype", "fp32", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_diff_of_a_real_catalogue_touches_only_the_entries_filled(model_dir, tmp_path, capsys):
    output = tmp_path / "sample.po"
    report = po(capsys, model_dir, SAMPLE, output)
    assert report["filled"] >= 1
    before = SAMPLE.read_text(encoding="utf-8").splitlines()
    after = output.read_text(encoding="utf-8").splitlines()
    changed = [
        line
        for line in difflib.unified_diff(before, after, lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert all(line == '-msgstr ""' for line in changed if line.startswith("-")), changed
    added = [line[1:] for line in changed if line.startswith("+")]
    assert added.count("#, fuzzy") == report["filled"]
    assert all(line.startswith(("#, fuzzy", "msgstr ", '"')) for line in added), added
    assert all(len(line) <= 79 for line in added if " " in line)  # the file's own width
    filled = polib.pofile(str(output))
    for entry in polib.pofile(str(SAMPLE)):
        again = filled.find(entry.msgid)
        assert (again.occurrences, again.comment) == (entry.occurrences, entry.comment)
        assert again.msgstr == entry.msgstr or (again.fuzzy and not entry.msgstr)


def test_a_catalogue_is_filled_in_place_only_with_overwrite(model_dir, tmp_path, capsys):
    catalogue = shutil.copy(SAMPLE, tmp_path / "sample.po")
    args = ["po", str(catalogue), "-o", str(catalogue), "-m", str(model_dir), "--threads", "1"]
    assert main(args) == 2
    assert "add --overwrite" in capsys.readouterr().err
    assert Path(catalogue).read_bytes() == SAMPLE.read_bytes()
    assert main([*args, "--overwrite"]) == 0
    assert "#, fuzzy" in Path(catalogue).read_text(encoding="utf-8")


class Positional:
    """Translates "%1$s of %2$s" with its placeholders reordered, and "%1$s copied to %2$s"
    with one of them lost."""

    def stream(self, texts, to=None):
        answers = {"%1$s of %2$s": "%2$s 的 %1$s", "%1$s copied to %2$s": "%1$s 已复制"}
        return iter(SimpleNamespace(text=answers[t], error=None) for t in texts)


POSITIONAL = """\
msgid ""
msgstr ""
"Project-Id-Version: demo 1.0\\n"
"Language: zh_CN\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"

#, c-format
msgid "%1$s of %2$s"
msgstr ""

#, c-format
msgid "%1$s copied to %2$s"
msgstr ""
"""


def test_positional_placeholders_are_held():
    assert placeholders("%1$s of %2$d, %-5.2lf, %(name)s and {0}") == sorted(
        ["%1$s", "%2$d", "%-5.2lf", "%(name)s", "{0}"]
    )


@pytest.mark.skipif(MSGFMT is None, reason="needs gettext's msgfmt")
def test_msgfmt_accepts_a_catalogue_with_positional_placeholders(tmp_path):
    path = tmp_path / "demo.po"
    path.write_text(POSITIONAL, encoding="utf-8")
    found = read_catalogue(path)
    todo = list(found.catalogue)
    report = fill(found.catalogue, Positional(), "zh")
    assert (report.filled, report.placeholders_lost) == (1, 1)
    path.write_text(written_back(found, [e for e in todo if e.fuzzy]), encoding="utf-8")
    checked = subprocess.run(
        [MSGFMT, "-c", "--use-fuzzy", "-o", str(tmp_path / "demo.mo"), str(path)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("charset", ["GBK", "ISO-8859-1"])
def test_a_catalogue_is_read_and_written_in_its_charset(model_dir, tmp_path, capsys, charset):
    word = "你好" if charset == "GBK" else "café"
    text = (
        f'msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n"Content-Type: text/plain; charset={charset}'
        f'\\n"\n\n# {word}\nmsgid "Thank you."\nmsgstr ""\n'
    )
    source, output = tmp_path / "in.po", tmp_path / "out.po"
    source.write_bytes(text.encode(charset))
    # no held phrase: the tiny model writes a stray byte before a held 谢谢, which GBK lacks
    report = po(capsys, model_dir, source, output, "--hold-names", "false")
    written = output.read_bytes().decode(charset)  # in the catalogue's own charset
    assert written.startswith(text.split('msgid "Thank')[0])
    if charset == "GBK":
        assert report["filled"] + report["failed"] == 1, report
    else:  # Chinese has no Latin-1 form: the entry is left as it was
        assert report["outside_charset"] == 1 and written == text


def test_an_unclosed_msgid_is_one_line_naming_the_file_and_line(tmp_path, capsys):
    source = tmp_path / "bad.po"
    source.write_text('msgid ""\nmsgstr ""\n\nmsgid "Thank you.\nmsgstr ""\n', encoding="utf-8")
    args = ["po", str(source), "-o", str(tmp_path / "out.po"), "-m", str(tmp_path / "none")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{source}, line 4: a string not closed by a quote" in err and len(err.splitlines()) == 1


def test_a_file_whose_content_is_a_path_is_read_as_itself(model_dir, tmp_path, capsys):
    real = shutil.copy(SAMPLE, tmp_path / "real.po")
    trick = tmp_path / "trick.po"
    trick.write_text(str(real), encoding="utf-8")
    args = ["po", str(trick), "-o", str(tmp_path / "out.po"), "-m", str(model_dir)]
    assert main(args) == 2
    assert "trick.po: not a gettext catalogue" in capsys.readouterr().err
    assert not (tmp_path / "out.po").exists()


def test_a_charset_python_lacks_is_one_line(tmp_path, capsys):
    source = tmp_path / "x.po"
    source.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=NOPE\\n"\n')
    assert main(["po", str(source), "-o", str(tmp_path / "o.po"), "-m", "none"]) == 2
    err = capsys.readouterr().err
    assert "x.po: its header declares charset NOPE" in err and len(err.splitlines()) == 1

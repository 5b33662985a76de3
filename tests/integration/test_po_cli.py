"""``fanyi po`` as a user runs it, on a tiny trained model: a catalogue's untranslated entries
filled and flagged fuzzy, the rest written back as they were, a report, the target language from
the catalogue's header, a file that is no catalogue refused in one line; the benchmark on a
snapshot made here."""

import json
import subprocess

import polib
import pytest

from conftest import run_benchmark
from fanyi import Translator
from fanyi.cli import main
from fanyi.text.markup import mend, render
from tiny_translator import tiny_model_dir

CATALOGUE = """\
msgid ""
msgstr ""
"Language: zh_CN\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

#: ../../tutorial/index.rst:3
msgid "Thank you."
msgstr ""

msgid "Where is the ``station``?"
msgstr ""

msgid "I am fine."
msgstr "我很好。"

msgid ":func:`len`"
msgstr ""
"""


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


def test_the_untranslated_entries_are_filled_as_the_translator_translates(
    model_dir, tmp_path, capsys
):
    source, output = tmp_path / "index.po", tmp_path / "out" / "index.po"
    source.write_text(CATALOGUE, encoding="utf-8")
    output.parent.mkdir()
    args = ["po", str(source), "-o", str(output), "-m", str(model_dir), "--threads", "1"]
    assert main([*args, "--dtype", "fp32", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["entries"] == 4 and report["filled"] == 2
    assert report["translated_already"] == 1 and report["code_only"] == 1
    assert source.read_text(encoding="utf-8") == CATALOGUE  # the input is only read
    filled = polib.pofile(str(output))
    translator = Translator.load(model_dir, dtype="fp32")
    msgids = ["Thank you.", "Where is the ``station``?"]
    expected = translator(msgids, to="zh")  # the header's language
    for msgid, translation in zip(msgids, expected, strict=True):
        entry = filled.find(msgid)
        assert entry.fuzzy and entry.msgstr == mend(translation, render(msgid))[0]
    assert filled.find("Thank you.").occurrences == [("../../tutorial/index.rst", "3")]
    assert filled.find("I am fine.").msgstr == "我很好。" and not filled.find("I am fine.").fuzzy
    assert filled.find(":func:`len`").msgstr == ""
    assert filled.metadata["Language"] == "zh_CN"


@pytest.mark.parametrize("text", ["hello world\n", None], ids=["not a catalogue", "missing"])
def test_a_file_that_is_no_catalogue_is_one_line(model_dir, tmp_path, capsys, text):
    bad = tmp_path / "bad.po"
    if text is not None:
        bad.write_text(text, encoding="utf-8")
    status = main(["po", str(bad), "-o", str(tmp_path / "out.po"), "-m", str(model_dir)])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "bad.po" in err and not (tmp_path / "out.po").exists()


def test_an_output_folder_that_is_missing_is_found_out_before_translating(tmp_path, capsys):
    source = tmp_path / "index.po"
    source.write_text(CATALOGUE, encoding="utf-8")
    output = tmp_path / "missing" / "index.po"
    status = main(["po", str(source), "-o", str(output), "-m", str(tmp_path / "no-model")])
    err = capsys.readouterr().err  # the missing model would have been the error after it
    assert status == 2 and "no folder" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow  # runs benchmarks/catalogue.py
def test_the_benchmark_finds_the_held_out_entries_in_a_snapshot(model_dir, tmp_path):
    repo = tmp_path / "python-docs-zh-cn"
    (repo / "c-api").mkdir(parents=True)
    english = (  # the fixture's second held-out pair, from 3.7:c-api/buffer.po
        "Contrary to most data types exposed by the Python interpreter, buffers are not "
        "PyObject pointers but rather simple C structures."
    )
    entries = (
        f'msgid "{english}"\nmsgstr "缓冲区是简单的 C 结构。"\n\nmsgid "contig"\nmsgstr "邻接"\n'
    )
    (repo / "c-api" / "buffer.po").write_text(entries, encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q", "-b", "3.7"], ["add", "."], ["commit", "-q", "-m", "po"]):
        subprocess.run([*git, *args], check=True)
    args = ["-m", str(model_dir), "--snapshot", str(repo), "--threads", "1"]
    done = run_benchmark("catalogue.py", *args)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["benchmark"] == "catalogue" and result["entries"] == 2
    assert "3.7:c-api/arg.po" in result["missing_files"]  # the fixture's other files
    assert result["fanyi po"]["report"]["filled"] == 2
    for way in ("fanyi translate", "fanyi po"):
        assert (
            result[way]["signature"].startswith("nrefs:1") and "tok:zh" in result[way]["signature"]
        )

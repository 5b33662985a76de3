"""``fanyi po`` as a user runs it, on a tiny trained model: a catalogue's untranslated entries
filled and flagged fuzzy, the rest written back as they were, a report, the target language from
the catalogue's header, and a file that is no catalogue refused in one line."""

import json

import polib
import pytest

from fanyi import Translator
from fanyi.cli import main
from fanyi.markup import plain_text
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
    expected = translator(["Thank you.", "Where is the station?"], to="zh")  # the header's
    for msgid, translation in zip(
        ["Thank you.", "Where is the ``station``?"], expected, strict=True
    ):
        entry = filled.find(msgid)
        assert entry.fuzzy and plain_text(entry.msgstr) == plain_text(translation)
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

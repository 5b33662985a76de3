"""A catalogue read as a file and written back with only its filled entries changed: every
other byte as it was, the new msgstr wrapped at the file's own width (at a space or between CJK
characters, never inside an escape), fuzzy added to the flags; the charset the header declares;
a string not closed by a quote refused by file and line."""

from __future__ import annotations

import pytest

from fanyi.catalogue_file import (
    line_width,
    pieces,
    read_catalogue,
    string_lines,
    written_back,
)

CATALOGUE = """\
# A translator's comment at the top.
msgid ""
msgstr ""
"Language: zh_CN\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

#: ../../a.rst:1
msgid ""
"A long paragraph that the catalogue's tools wrapped at seventy-nine columns, "
"as python-docs-zh-cn keeps it."
msgstr ""

#: ../../a.rst:5
#, python-format
msgid "Copied %s"
msgstr ""

msgid "Kept as it is."
msgstr ""

msgid "A file"
msgid_plural "Files"
msgstr[0] ""
msgstr[1] ""
"""


def filled(tmp_path, text=CATALOGUE, encoding="utf-8", **translations):
    """The catalogue ``text`` written back with ``translations`` (msgid: msgstr) filled."""
    path = tmp_path / "a.po"
    path.write_bytes(text.encode(encoding))
    found = read_catalogue(path)
    entries = []
    for entry in found.catalogue:
        if entry.msgid in translations:
            if entry.msgid_plural:
                entry.msgstr_plural = dict(enumerate(translations[entry.msgid]))
            else:
                entry.msgstr = translations[entry.msgid]
            entry.flags.append("fuzzy")
            entries.append(entry)
    return written_back(found, entries)


def test_only_the_filled_entries_change(tmp_path):
    long = "一个很长的段落，" * 12
    text = filled(tmp_path, **{"Copied %s": "已复制 %s", "A file": ["一个文件", "文件"]})
    text = filled(
        tmp_path,
        text=text,
        **{
            "A long paragraph that the catalogue's tools wrapped at seventy-nine columns, as "
            "python-docs-zh-cn keeps it.": long
        },
    )
    expected = CATALOGUE.replace(
        '#, python-format\nmsgid "Copied %s"\nmsgstr ""',
        '#, fuzzy, python-format\nmsgid "Copied %s"\nmsgstr "已复制 %s"',
    ).replace(
        'msgid "A file"\nmsgid_plural "Files"\nmsgstr[0] ""\nmsgstr[1] ""',
        '#, fuzzy\nmsgid "A file"\nmsgid_plural "Files"\nmsgstr[0] "一个文件"\nmsgstr[1] "文件"',
    )
    start = expected.index("#: ../../a.rst:1\n") + len("#: ../../a.rst:1\n")
    expected = expected[:start] + "#, fuzzy\n" + expected[start:]
    lines = text.splitlines()
    at = lines.index("#: ../../a.rst:5")
    msgstr = lines[lines.index('msgstr ""', 8) : at - 1]  # the long entry's, wrapped
    assert msgstr[0] == 'msgstr ""' and "".join(line[1:-1] for line in msgstr[1:]) == long
    assert len(msgstr) > 2 and all(len(line) <= 79 for line in msgstr)
    assert text.replace("\n".join(msgstr), 'msgstr ""') == expected


def test_a_file_without_changes_is_written_back_byte_for_byte(tmp_path):
    text = CATALOGUE.replace("\n", "\r\n")
    assert filled(tmp_path, text=text) == text


def test_crlf_lines_stay_crlf(tmp_path):
    text = filled(
        tmp_path, text=CATALOGUE.replace("\n", "\r\n"), **{"Kept as it is.": "保持原样。"}
    )
    assert '#, fuzzy\r\nmsgid "Kept as it is."\r\nmsgstr "保持原样。"\r\n' in text
    assert "\n" not in text.replace("\r\n", "")


def test_the_width_is_the_files_own():
    assert line_width(['"seventy-nine columns of text broken at a space "', '"end."']) == 49
    assert line_width(['msgid "short"', 'msgstr "short"']) == 79  # gettext's, nothing wrapped
    assert line_width(["msgid " + '"' + "x" * 200 + '"']) == 208  # never wrapped: its longest


def test_pieces_break_at_spaces_and_between_cjk_characters_never_inside_an_escape():
    assert pieces("aaa bbb ccc", 8) == ["aaa bbb ", "ccc"]
    assert pieces("一二三四五六", 4) == ["一二三四", "五六"]
    assert pieces('一二\\"三四', 3) == ["一二", '\\"三', "四"]
    assert pieces("好。好。", 1) == ["好。", "好。"]  # never before closing punctuation
    assert "".join(pieces("a" * 100, 10)) == "a" * 100  # a word longer than a line stays whole
    assert string_lines("msgstr", "短", 79) == ['msgstr "短"']


def test_a_catalogue_is_read_in_its_declared_charset(tmp_path):
    for charset, word in (("ISO-8859-1", "café"), ("GBK", "你好")):
        text = CATALOGUE.replace("UTF-8", charset).replace("Kept as it is.", word)
        found = read_catalogue(write(tmp_path, text.encode(charset.lower())))
        assert found.encoding == charset and found.catalogue.find(word) is not None


def write(tmp_path, data: bytes):
    path = tmp_path / "a.po"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "data, problem",
    [
        (CATALOGUE.replace("UTF-8", "KLINGON").encode(), "charset KLINGON"),
        (CATALOGUE.encode("utf-8").replace(b"Kept", b"K\xffpt"), "not UTF-8 text"),
        (b'msgid "unclosed\nmsgstr ""\n', "line 1: a string not closed by a quote"),
        (b'msgid "a"\nmsgstr ""\n"half\n', "line 3: a string not closed by a quote"),
        (b'#~ msgid "old\n#~ msgstr ""\n', "line 1: a string not closed"),
        (b"hello world\n", "not a gettext catalogue"),
    ],
)
def test_what_is_not_a_catalogue_is_one_line_naming_the_file(tmp_path, data, problem):
    path = write(tmp_path, data)
    with pytest.raises(ValueError, match=problem) as error:
        read_catalogue(path)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_a_file_whose_content_is_a_path_is_not_read_from_that_path(tmp_path):
    real = write(tmp_path, CATALOGUE.encode())
    trick = tmp_path / "trick.po"
    trick.write_text(str(real), encoding="utf-8")
    with pytest.raises(ValueError, match="not a gettext catalogue"):
        read_catalogue(trick)

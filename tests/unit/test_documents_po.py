"""The PO document format (``fanyi.documents.po``) with a stand-in translator: a catalogue read by
extension, its untranslated entries filled and flagged fuzzy as ``fanyi po`` fills them, every
other byte as it was; the target from its ``Language`` header; written in parts, each part's file
a whole catalogue with the parts before it."""

from types import SimpleNamespace

import polib
import pytest

from fanyi.documents import translate_document
from fanyi.documents.api import read_document
from fanyi.documents.po import filled_in_parts, read
from fanyi.documents.registry import FORMATS, format_for

CATALOGUE = r"""# A translator's comment.
msgid ""
msgstr ""
"Language: zh_CN\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: ../../library/functions.rst:3
msgid "Return ``True`` if :func:`abs` fails."
msgstr ""

msgid "Already done."
msgstr "已经完成。"

#, fuzzy
msgid "A draft."
msgstr "草稿。"

msgid ":func:`abs`"
msgstr ""

#, python-format
msgid "Copied %s"
msgstr ""

#, python-format
msgid "%(count)d files in %s"
msgstr ""

msgid "One file"
msgid_plural "Many files"
msgstr[0] ""
msgstr[1] ""
"""


class Copying:
    """Translates a text as "译" and the text, dropping "%s" from "Copied %s"; into zh or en."""

    def __init__(self):
        self.targets = ["en", "zh"]
        self.read: list[tuple[str, str]] = []

    def stream(self, texts, to=None, **options):
        self.read += [(text, to) for text in texts]
        for text in texts:
            yield SimpleNamespace(text=f"译{text.replace('Copied %s', 'Copied')}", error=None)


def test_po_and_pot_are_read_as_catalogues():
    assert format_for("messages.po") is format_for("messages.POT") is FORMATS["po"]
    found, document = read_document(CATALOGUE.encode(), name="messages.po")
    assert found.name == "po"
    assert [segment[0].text for segment in document.segments] == [
        "Return ``True`` if :func:`abs` fails.",
        "Copied %s",
        "%(count)d files in %s",
        "One file",
        "Many files",
    ]


def test_untranslated_entries_are_filled_and_flagged_the_rest_kept_byte_for_byte():
    translator = Copying()
    done = translate_document(translator, CATALOGUE.encode(), name="messages.po")
    assert done.format == "po" and done.to == "zh"  # the Language header's
    assert {to for _, to in translator.read} == {"zh"}
    text = done.data.decode("utf-8")
    filled = polib.pofile(text)
    entry = filled.find("Return ``True`` if :func:`abs` fails.")
    assert entry.fuzzy and entry.msgstr == "译Return ``True`` if :func:`abs` fails."
    assert filled.find("%(count)d files in %s").fuzzy
    assert not filled.find("Copied %s").fuzzy  # a placeholder lost: left as it was
    plural = filled.find("One file")
    assert plural.msgstr_plural == {0: "译One file", 1: "译Many files"}
    for kept in ("Already done.", "A draft.", ":func:`abs`", "Copied %s"):
        block = next(b for b in CATALOGUE.split("\n\n") if f'msgid "{kept}"' in b)
        assert block in text
    assert text.startswith(CATALOGUE.split("#: ")[0])


def test_written_in_parts_each_file_is_a_whole_catalogue():
    document = read(CATALOGUE.encode(), "messages.po")
    parts = list(filled_in_parts(document, Copying(), "zh", 2))
    assert len(parts) == 2
    first, second = (polib.pofile(data.decode()) for data, _ in parts)
    assert len(first) == len(second) == 7
    assert [e.msgid for e in first if e.fuzzy] == [
        "Return ``True`` if :func:`abs` fails.",
        "A draft.",
    ]
    assert [e.msgid for e in second if e.fuzzy][-2:] == ["%(count)d files in %s", "One file"]
    assert parts[-1][0] == translate_document(Copying(), CATALOGUE.encode(), "po", "zh").data
    report = parts[-1][1]
    assert (report.filled, report.placeholders_lost, report.code_only) == (3, 1, 1)
    assert (report.translated_already, report.fuzzy_or_obsolete) == (1, 1)


def test_a_catalogue_with_nothing_to_fill_is_written_back_as_it_was():
    done = read(CATALOGUE.encode(), "messages.po")
    assert done.write([None] * len(done.segments), "zh") == CATALOGUE.encode()
    assert done.report.failed == 4
    template = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=CHARSET\\n"\n'
    parts = list(filled_in_parts(read(template.encode(), "messages.pot"), Copying(), "zh", 8))
    assert [data for data, _ in parts] == [template.encode()]


def test_a_file_that_is_no_catalogue_is_one_line_naming_it():
    with pytest.raises(ValueError, match=r"^bad\.po: not a gettext catalogue") as refused:
        read(b"hello world\n", "bad.po")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "text",
    [
        'msgid "Hello."\nmsgstr ""\n',  # no header: polib numbers the first entry's line 0
        '\ufeffmsgid "Hello."\nmsgstr ""\n',
        '  msgid "Hello."\n  msgstr ""\n',  # indented, as gettext's tools read it too
        '#, python-format\nmsgid "Hello."\nmsgstr ""\n\nmsgid "Bye."\nmsgstr ""\n',
    ],
)
def test_the_first_entry_is_filled_in_place(text):
    done = translate_document(Copying(), text.encode("utf-8"), "po", "zh")
    again = read(done.data, "again.po")
    first = again.catalogue[0]
    assert (first.msgid, first.msgstr, first.fuzzy) == ("Hello.", "译Hello.", True)
    assert done.data.startswith(b"\xef\xbb\xbf") == text.startswith("\ufeff")
    assert len(again.catalogue) == len(read(text.encode("utf-8"), "a.po").catalogue)

"""A gettext catalogue filled (``fanyi.catalogue.fill``) by a stand-in translator that copies
what it reads after "译" (markup and all): which entries are filled and flagged, which stay as
they were and why, plural forms, lost placeholders and failed texts."""

from types import SimpleNamespace

import polib

from fanyi.catalogue import fill

CATALOGUE = r"""
msgid ""
msgstr ""
"Language: zh_CN\n"
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Return ``True`` if :func:`abs` fails."
msgstr ""

msgid "Already done."
msgstr "已经完成。"

#, fuzzy
msgid "A draft."
msgstr "草稿。"

#~ msgid "Gone."
#~ msgstr ""

msgid ":func:`abs`"
msgstr ""

msgid "def f():\n    return 1"
msgstr ""

msgid "|func-str|_"
msgstr ""

#, python-format
msgid "%(count)d files in %s"
msgstr ""

#, python-format
msgid "Copied %s"
msgstr ""

msgid "One file"
msgid_plural "Many files"
msgstr[0] ""

msgid "FAIL here"
msgstr ""
"""


class Copying:
    """Translates a text as "译" and the text, dropping "%s" from "Copied %s"; fails on "FAIL"."""

    def __init__(self):
        self.read = []

    def stream(self, texts, to=None):
        self.read += texts
        return iter(self.translations(texts))

    def translations(self, texts):
        return [
            SimpleNamespace(text=f"译{t.replace('Copied %s', 'Copied')}", error=None)
            if "FAIL" not in t
            else SimpleNamespace(text="", error="failed")
            for t in texts
        ]


def test_untranslated_entries_are_filled_and_flagged_the_rest_left_as_they_were():
    catalogue = polib.pofile(CATALOGUE, wrapwidth=0)
    before = {e.msgid: str(e) for e in catalogue}
    translator = Copying()
    report = fill(catalogue, translator, "zh")
    assert translator.read == [  # as written
        "Return ``True`` if :func:`abs` fails.",
        "%(count)d files in %s",
        "Copied %s",
        "One file",
        "Many files",
        "FAIL here",
    ]
    entry = catalogue.find("Return ``True`` if :func:`abs` fails.")
    assert entry.msgstr == "译Return ``True`` if :func:`abs` fails." and entry.fuzzy
    assert catalogue.find("%(count)d files in %s").msgstr == "译%(count)d files in %s"
    plural = catalogue.find("One file")
    assert plural.msgstr_plural == {0: "译One file"} and plural.fuzzy
    for kept in ("Already done.", "A draft.", ":func:`abs`", "|func-str|_", "Copied %s"):
        assert str(catalogue.find(kept)) == before[kept]
    assert str(catalogue.find("FAIL here")) == before["FAIL here"]
    assert report.to_dict() == {
        "entries": 11,
        "filled": 3,
        "translated_already": 1,
        "fuzzy_or_obsolete": 2,
        "code_only": 3,
        "placeholders_lost": 1,
        "outside_charset": 0,
        "failed": 1,
        "spans": 2,
        "spans_held": 2,
    }


def test_plural_forms_take_the_singular_and_plural_translations():
    catalogue = polib.pofile(
        'msgid "a file"\nmsgid_plural "files"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n'
    )
    fill(catalogue, Copying(), "en")
    assert catalogue[0].msgstr_plural == {0: "译a file", 1: "译files", 2: "译files"}

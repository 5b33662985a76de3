"""``fanyi po`` with the bundled general model on six held-out python-docs entries
(tests/fixtures/data/python-docs/sample.po): the four untranslated ones filled in Chinese and
flagged fuzzy, every role and literal held as written and set apart from Han characters, every
literal block's ``::`` kept, where a line of ``fanyi translate`` can lose it. The tests compare
the model with itself, so a retrained model passes as long as the feature works (fixed words are
the golden test's); fp32, so that every host decodes alike."""

import re
from pathlib import Path

import polib
import pytest

from fanyi import Translator
from fanyi.catalogue import fill
from fanyi.text.lang import HAN, has_han
from fanyi.text.markup import mend, render
from fanyi.translate.translator import BUNDLED

SAMPLE = Path(__file__).parents[1] / "fixtures" / "data" / "python-docs" / "sample.po"

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def translator():
    return Translator.load(dtype="fp32")


def test_the_untranslated_entries_come_back_as_valid_rest(translator):
    catalogue = polib.pofile(str(SAMPLE))
    report = fill(catalogue, translator, "zh")
    assert (report.filled, report.translated_already, report.code_only) == (4, 1, 1)
    for entry in catalogue[:4]:
        rendered, text = render(entry.msgid), entry.msgstr
        assert entry.fuzzy and has_han(text), text
        assert rendered.literal_block == text.endswith("::"), text
        for markup, _ in rendered.spans:
            assert re.search(rf"(?<![\w{HAN}]){re.escape(markup)}(?![\w{HAN}])", text), text
    assert report.spans_held == report.spans == 6
    assert not catalogue[4].fuzzy and catalogue[5].msgstr == ""


def test_an_entry_is_its_line_translation_made_valid_rest(translator):
    """What ``fanyi po`` writes for an entry is what ``fanyi translate`` writes for its line, its
    spans set apart and a literal block's ``::`` kept (``markup.mend``)."""
    catalogue = polib.pofile(str(SAMPLE))
    fill(catalogue, translator, "zh")
    filled = catalogue[:4]  # the untranslated ones, translated as one batch
    lines = translator([entry.msgid for entry in filled], to="zh")
    for entry, line in zip(filled, lines, strict=True):
        assert entry.msgstr == mend(line, render(entry.msgid))[0], (entry.msgstr, line)
    assert sum(entry.msgstr.endswith("::") for entry in filled) == 3  # the literal blocks

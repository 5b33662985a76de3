"""``fanyi po`` with the bundled general model on six held-out python-docs entries
(tests/fixtures/data/python-docs/sample.po): the four untranslated ones filled in Chinese and
flagged fuzzy, every role and literal held as written and set apart from Han characters, every
literal block's ``::`` kept; a line of ``fanyi translate`` lost the ``::``. fp32, so that every
host decodes alike."""

import re
from pathlib import Path

import polib
import pytest

from fanyi import Translator
from fanyi.catalogue import fill
from fanyi.text.lang import HAN, has_han
from fanyi.text.markup import render
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


def test_as_lines_the_literal_blocks_lost_their_double_colon(translator):
    blocks = [e.msgid for e in polib.pofile(str(SAMPLE)) if e.msgid.endswith("::")]
    assert len(blocks) == 3
    assert not any(t.endswith("::") for t in translator(blocks, to="zh"))

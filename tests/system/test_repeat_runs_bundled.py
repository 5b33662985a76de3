"""The bundled model on real lines (WMT newstest2017 and 2020, FLORES-200, TICO-19) that it
stutters on without ``max_repeat_run`` ("Tokyo Embasssssy", "professssor", "造成造成造成造成造成",
"咳咳咳咳" spelt in bytes): with its own decoding options, no translation holds a run its source
does not, nor a byte left over (U+FFFD)."""

import pytest

from fanyi import Translator
from fanyi.text.runs import degenerate_runs
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")

LINES = {
    "en": [
        "他1972年出生在爱沙尼亚首都塔林，毕业于著名的莫斯科国立国际关系学院 (MGIMO)，在东京大使馆工作过。",
        "埃胡德·乌尔博士（新斯科舍省哈利法克斯市达尔豪西大学医学教授，加拿大糖尿病协会临床与科学部门教授）"
        "提醒，这项研究仍处在早期阶段。",
    ],
    "zh": [
        "But after months of open hostility - and given the potential for utter disaster when "
        "Nato member Turkey shot down that Russian fighter jet - it is surely better that the "
        "two leaders are at least talking again.",
        "but i know lot of people cough on me",
        "Michael Jackson wore tape on his nose to get front pages, former bodyguard claims",
    ],
}


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load(dtype="fp32")


@pytest.mark.parametrize("to", sorted(LINES))
def test_the_shipped_options_write_no_run_the_source_lacks(translator, to):
    assert translator.options.max_repeat_run > 0
    for line, found in zip(LINES[to], translator.translate(LINES[to], to), strict=True):
        assert found.error is None
        assert degenerate_runs(found.text, line) == [], found.text
        assert "\ufffd" not in found.text


@pytest.mark.parametrize("to", sorted(LINES))
def test_without_the_guard_these_lines_run(translator, to):
    """Why these lines: unguarded, at least one of them stutters (a model that no longer does
    leaves this test nothing to show, and it may go). Names are not held: a held name may
    take the place of the word the model stutters on."""
    found = translator.translate(LINES[to], to, max_repeat_run=0, hold_names=False)
    assert any(degenerate_runs(t.text, line) for t, line in zip(found, LINES[to], strict=True))

"""``fanyi po`` loses no work: it writes the catalogue whole after each ``--chunk`` entries
filled, so Ctrl-C in the middle leaves a catalogue polib reads with every entry filled so far,
and filling that catalogue again completes it into what an uninterrupted run writes."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import polib
import pytest

from fanyi.cli import main
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # a model trained, a catalogue filled three times

SENTENCES = ["Thank you.", "Where is the station?", "I like tea.", "He is my friend."]
HEADER = 'msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'


ENTRIES = 240  # enough that a stop comes in the middle even on a busy host


def catalogue() -> str:
    """240 entries: 237 untranslated (one of them plural), 3 translated already."""
    entries = [
        f'#: page.rst:{n}\nmsgid "{SENTENCES[n % 4][:-1]} ({n})."\nmsgstr ""\n'
        for n in range(ENTRIES - 4)
    ]
    entries += [f'msgid "Done {n}."\nmsgstr "完成 {n}。"\n' for n in range(3)]
    entries.append('msgid "One cup"\nmsgid_plural "Many cups"\nmsgstr[0] ""\n')
    return "\n".join([HEADER, *entries])


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> list[str]:
    """The model arguments: the tiny model, one thread, fp32, one entry per part."""
    model_dir = str(tiny_model_dir(tmp_path_factory))
    return ["-m", model_dir, "--threads", "1", "--dtype", "fp32", "--chunk", "1"]


def filled(path: Path) -> dict[str, str]:
    """The entries of catalogue ``path`` filled (flagged fuzzy): msgid → the file's entry."""
    return {entry.msgid: str(entry) for entry in polib.pofile(str(path)) if entry.fuzzy}


def test_ctrl_c_keeps_the_filled_entries_and_filling_again_completes_them(model, tmp_path):
    source, out, whole = tmp_path / "in.po", tmp_path / "out.po", tmp_path / "whole.po"
    source.write_text(catalogue(), encoding="utf-8")
    assert main(["po", str(source), "-o", str(whole), *model]) == 0
    expected = filled(whole)
    assert len(expected) > ENTRIES - 10  # of 237: the tiny model may fail on a few
    command = [sys.executable, "-m", "fanyi", "po", str(source), "-o", str(out), *model]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while process.poll() is None and not (out.exists() and filled(out)):
        time.sleep(0.02)  # each write is whole (renamed into place): any file seen parses
    process.send_signal(signal.SIGINT)
    stopped, kept = process.wait(), filled(out)
    if stopped == 130:  # in the middle, as nearly always
        assert 0 < len(kept) < len(expected)
    else:  # a host too busy to send the signal before the last entry: the whole was written
        assert stopped == 0 and kept == expected
    assert all(expected[msgid] == entry for msgid, entry in kept.items())
    assert len(polib.pofile(str(out))) == ENTRIES
    assert main(["po", str(out), "-o", str(out), "--overwrite", *model]) == 0
    assert out.read_bytes() == whole.read_bytes()

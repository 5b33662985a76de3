"""benchmarks/timed.py: a command timed on a file of lines, whole or as several commands at once
on shares of the lines, whose outputs come back in the lines' order."""

import importlib
import sys

import pytest

from conftest import REPO

UPPER = [sys.executable, "-c", "import sys; print(open(sys.argv[1]).read().upper(), end='')"]


@pytest.fixture
def timed(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    return importlib.import_module("timed")


@pytest.mark.parametrize("parts", [2, 3])
def test_shares_of_the_lines_come_back_in_order(timed, tmp_path, parts):
    source, output = tmp_path / "source.txt", tmp_path / "out.txt"
    source.write_text("".join(f"line {i}\n" for i in range(7)), encoding="utf-8")
    seconds, cpu = timed.timed_apart(UPPER, source, output, parts)
    assert output.read_text(encoding="utf-8") == "".join(f"LINE {i}\n" for i in range(7))
    assert seconds > 0 and cpu > 0


def test_a_failing_share_stops_with_its_error(timed, tmp_path):
    source = tmp_path / "source.txt"
    source.write_text("a\nb\n", encoding="utf-8")
    failing = [sys.executable, "-c", "import sys; sys.exit('no such model')"]
    with pytest.raises(SystemExit, match="no such model"):
        timed.timed_apart(failing, source, tmp_path / "out.txt", 2)

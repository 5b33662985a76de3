"""README's translation examples stay true: each ``printf '…' | .venv/bin/fanyi translate`` in a
bash block, run as a user runs it (``fanyi translate``, the bundled model, in fp32 so that every
host decodes alike), prints the lines of the plain block that follows it. A new bundled model
that changes them must change README too."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fanyi.translate.translator import BUNDLED

README = Path(__file__).resolve().parents[2] / "README.md"
PRINTF = re.compile(r"printf '(?P<lines>[^']*)' \| \.venv/bin/fanyi translate\n")
PLAIN = re.compile(r"^```\n(?P<output>.*?)^```$", re.DOTALL | re.MULTILINE)  # no language

pytestmark = [
    pytest.mark.slow,  # runs fanyi as a subprocess
    pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}"),
]


def examples() -> list[tuple[str, str]]:
    """(input lines, printed lines) of each example in README: the first plain block after the
    end of the bash block that holds the command."""
    text = README.read_text(encoding="utf-8")
    found = []
    for command in PRINTF.finditer(text):
        after_block = text.index("\n```\n", command.start()) + len("\n```\n")
        output = PLAIN.search(text, after_block)
        assert output, f"README: no output block after {command[0]!r}"
        found.append((command["lines"].replace("\\n", "\n"), output["output"]))
    return found


def test_readme_has_both_examples():
    found = examples()
    assert len(found) == 2, found
    assert "Where is the train station?" in found[0][0]


@pytest.mark.parametrize("index", [0, 1])
def test_readme_example_prints_what_readme_says(index):
    lines, printed = examples()[index]
    done = subprocess.run(
        [sys.executable, "-m", "fanyi", "translate", "--threads", "2", "--dtype", "fp32"],
        input=lines, capture_output=True, text=True, encoding="utf-8", timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed

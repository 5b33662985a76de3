"""README's translation examples stay true: each ``printf '…' | .venv/bin/fanyi translate`` in a
bash block, run as a user runs it (``fanyi translate``, the bundled model, in fp32 so that every
host decodes alike), prints the lines of the plain block that follows it; each line of the Python
example that ends in ``# → VALUE`` gives VALUE (its ``repr``). A new bundled model that changes
them must change README too."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fanyi.translate.translator import BUNDLED

README = Path(__file__).resolve().parents[2] / "README.md"
PRINTF = re.compile(r"printf '(?P<lines>[^']*)' \| \.venv/bin/fanyi translate\n")
PLAIN = re.compile(r"^```\n(?P<output>.*?)^```$", re.DOTALL | re.MULTILINE)  # no language
PYTHON = re.compile(r"^```python\n(?P<code>.*?)^```$", re.DOTALL | re.MULTILINE)
SHOWN = re.compile(r"^(?P<expression>.*?)\s+# → (?P<value>.+)$")

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
        input=lines, capture_output=True, text=True, encoding="utf-8",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed


def test_readme_python_example_gives_what_readme_says():
    example = PYTHON.search(README.read_text(encoding="utf-8"))
    assert example, "README: no Python example"
    code = example["code"].replace("Translator.load()", 'Translator.load(dtype="fp32")')
    namespace: dict[str, object] = {}
    shown = 0
    for line in code.splitlines():
        if found := SHOWN.match(line):
            assert repr(eval(found["expression"], namespace)) == found["value"], line
            shown += 1
        else:
            exec(line, namespace)
    assert shown >= 3

"""The README stays true: its test command is the one CI runs, and its Architecture section
names every module and package of src/fanyi."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_ci_runs_exactly_the_readme_test_command():
    command = next(
        line for line in README.splitlines() if line.startswith("scripts/setup.sh --dev")
    )
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == command
    assert "ruff format --check" in command and "mypy" in command


def test_the_architecture_section_names_every_module():
    section = README.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    package = REPO / "src" / "fanyi"
    names = [p.name for p in package.iterdir() if p.suffix == ".py" and p.name != "__init__.py"]
    names += [f"{p.name}/" for p in package.iterdir() if (p / "__init__.py").is_file()]
    missing = [n for n in names if not re.search(rf"(?<![\w/]){re.escape(n)}", section)]
    assert not [m for m in missing if m != "__main__.py"], missing

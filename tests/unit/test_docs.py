"""The README and the docs stay true and short: the README's test command is the one CI runs, the
README is read in five minutes (at most 150 lines, the Python example and the server near the
top), no sentence of the README or docs/ runs over 60 words, and docs/architecture.md's layout
names every module and package of src/fanyi."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
MAX_README_LINES, MAX_SENTENCE_WORDS, NEAR_THE_TOP = 150, 60, 80
FENCE = re.compile(r"^\s*(```|~~~)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`*\"'\[]|fanyi\b)|(?<=[。！？])")
LIST_ITEM = re.compile(r"^([-*+]|\d+\.)\s")


def prose(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each paragraph, list item, heading and table cell of a Markdown
    text; code blocks and HTML comments are left out."""
    blocks: list[tuple[int, str]] = []
    paragraph: list[tuple[int, str]] = []
    in_code = False

    def end_paragraph() -> None:
        if paragraph:
            blocks.append((paragraph[0][0], " ".join(line for _, line in paragraph)))
            paragraph.clear()

    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if FENCE.match(line):
            end_paragraph()
            in_code = not in_code
        elif in_code:
            continue
        elif not stripped or stripped.startswith("<!--"):
            end_paragraph()
        elif stripped.startswith("|"):
            end_paragraph()
            blocks += [(number, cell) for cell in stripped.strip("|").split("|")]
        else:
            if stripped.startswith("#") or LIST_ITEM.match(stripped):
                end_paragraph()
            paragraph.append((number, stripped))
    end_paragraph()
    return blocks


def long_sentences(text: str) -> list[str]:
    """'line N: W words: sentence…' for each sentence of ``text`` over MAX_SENTENCE_WORDS."""
    found = []
    for number, block in prose(text):
        for sentence in SENTENCE_END.split(block):
            if len(words := sentence.split()) > MAX_SENTENCE_WORDS:
                found.append(f"line {number}: {len(words)} words: {sentence[:80]}…")
    return found


def test_long_sentences_are_found():
    short = "One two three. " * 30
    long = " ".join(["word"] * 61) + "."
    assert long_sentences(short) == []
    assert len(long_sentences(f"{short}\n{long}\n\n```\n{long}\n```\n")) == 1
    assert long_sentences(f"| {long} | x |") != []


def test_ci_runs_exactly_the_readme_test_command():
    command = next(
        line for line in README.splitlines() if line.startswith("scripts/setup.sh --dev")
    )
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == command
    assert "ruff format --check" in command and "mypy" in command


def test_the_readme_starts_with_the_two_commands():
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert first_block[0].startswith("scripts/setup.sh && printf ")
    assert first_block[1].startswith("scripts/setup.sh --dev && ")


def test_the_readme_is_read_in_five_minutes():
    lines = README.splitlines()
    assert len(lines) <= MAX_README_LINES, len(lines)
    top = "\n".join(lines[:NEAR_THE_TOP])
    assert "```python\n" in top and "Translator" in top, "the Python example is not near the top"
    assert "fanyi serve" in top, "`fanyi serve` is not near the top"


def test_no_sentence_of_the_readme_or_the_docs_runs_over_60_words():
    pages = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").glob("*.md"))]
    found = [
        f"{page.relative_to(REPO)} {where}"
        for page in pages
        if page.is_file()
        for where in long_sentences(page.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_architecture_page_names_every_module():
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = page.split("## Layout", 1)[1].split("\n## ", 1)[0]
    package = REPO / "src" / "fanyi"
    names = [p.name for p in package.iterdir() if p.suffix == ".py" and p.name != "__init__.py"]
    names += [f"{p.name}/" for p in package.iterdir() if (p / "__init__.py").is_file()]
    missing = [n for n in names if not re.search(rf"(?<![\w/]){re.escape(n)}", layout)]
    assert not missing, missing
    assert "docs/architecture.md" in README

"""The project's text speaks only of itself: no tracked file (code, tests, docs, configs, the
bundled models' configs, benchmarks, scripts) tells how it was made, by whom or in which
sitting. History belongs in CHANGELOG.md, and even there it describes the software.

Every tracked text file is read (``git ls-files``; without git, the tree less what .gitignore
leaves out), and each line that talks about the process is named as ``file:line``."""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().relative_to(REPO).as_posix()

# The words process talk is made of, spelt in pieces so that this file does not read as such talk
SITTING, ROLE, TRACKED, GIVEN = "ses" + "sion", "le" + "ad", "iss" + "ue", "le" + "nt"
WORKERS = "help" + "ers"
ORDINAL = (
    r"(?:[a-z]+-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    r"eleventh|twelfth|[a-z]+teenth|[a-z]+tieth)"
)
# What it looks like: a working sitting named by its place in a series (an ordinal in lower case,
# so that "Sixty-ninth ..." of a UN document is data), the people who run the project, its
# tracker's numbers, the hardware a sitting was or was not given.
PROCESS_TALK = {
    "a working sitting": re.compile(
        rf"(?<![\w-])(?:(?i:this|that|next|last|previous|earlier|later|a)|{ORDINAL})\s+{SITTING}\b"
        rf"|\b(?i:across|spans?|between|over)\s+{SITTING}s\b"
    ),
    "a role": re.compile(rf"\bthe\s+{ROLE}\b", re.IGNORECASE),
    "a tracker number": re.compile(rf"\b{TRACKED}s?\s+#?\d+", re.IGNORECASE),
    "the tracker's wording": re.compile(rf"\bthe\s+{TRACKED}'s\b", re.IGNORECASE),
    "given hardware": re.compile(rf"\bcards?\s+(?:was|were|is|are)\s+{GIVEN}\b", re.IGNORECASE),
    "a worker's runs": re.compile(
        rf"\bhelp(?:er)s?'?s?\s+(?:{SITTING}s?|tests?|runs?)\b", re.IGNORECASE
    ),
    "the people": re.compile(
        r"\b(?:other|another|three\s+other)\s+engineers?\b|\b(?:README|docs)\s+owner\b",
        re.IGNORECASE,
    ),
}
# What .gitignore leaves out, for a tree without git
IGNORED_DIRS = {".git", ".venv", ".hypothesis", "__pycache__", "runs", "data", "build", "dist"}


def tracked_files() -> list[Path]:
    """The tracked files; without git (an unpacked archive), every file but ignored ones."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return [
            path
            for path in REPO.rglob("*")
            if path.is_file()
            and not IGNORED_DIRS & set(path.relative_to(REPO).parts[:-1])
            and not any(part.endswith((".egg-info", "_cache")) for part in path.parts)
            and path.suffix != ".pyc"
        ]
    return [REPO / name for name in listed.decode("utf-8").split("\0") if name]


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file (a NUL byte, or not UTF-8) or a missing one."""
    try:
        data = path.read_bytes()
    except OSError:  # listed by git but deleted in the working tree
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def process_talk(name: str, text: str) -> list[str]:
    """'name:line: what (the words)' for each line of ``text`` that talks about the process."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in PROCESS_TALK.items():
            if match := pattern.search(line):
                found.append(f"{name}:{number}: {what} ({match[0]!r})")
    return found


def test_the_patterns_find_process_talk_and_leave_the_rest():
    talk = [
        f"as the nineteenth {SITTING} found",
        f"This {SITTING} measured it.",
        f"the {ROLE} re-runs it",
        f"({TRACKED} 33)",
        f"{TRACKED}s 32 and 33",
        f"no card was {GIVEN}",
        "sharing the host with helpers' tests",
        f"a run that spans {SITTING}s",
        f"the fifteenth {SITTING} shipped it",
        f"the twentieth {SITTING}",
        f"the {TRACKED}'s target",
        "beside other engineers' test runs",
    ]
    plain = [
        '@pytest.fixture(scope="session")',
        "the test session's own cache",
        "workers run in their own process session",
        "We have issues we have to deal with.",
        "I lent him a CD.",
        '<p class="lead">',
        "the leading space",
        "a connection with session cookies",
    ]
    assert all(process_talk("x", line) for line in talk), talk
    assert not [line for line in plain if process_talk("x", line)]
    assert not process_talk("x", f'"Sixty-ninth {SITTING}\\nAgenda item 1"')  # UN data


def test_no_tracked_file_talks_about_how_it_was_made():
    files = tracked_files()
    assert len(files) > 100, "found too few files to scan"
    found = []
    for path in files:
        name = path.relative_to(REPO).as_posix()
        if name != HERE and (text := text_of(path)) is not None:
            found += process_talk(name, text)
    assert not found, "\n".join(found)

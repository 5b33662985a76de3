"""``fanyi translate`` as a user runs it: a subprocess reading stdin line by line, files,
empty lines, the n-best format, ``--text``."""

import os
import re
import select
import subprocess
import sys

import pytest

from fanyi import Translator
from fanyi.decode.translator import BUNDLED
from tiny_translator import tiny_model_dir

LINES = ["我很好。", "", "Where is the station?", "他在哪里？", "   ", "Thank you."]
NBEST = re.compile(r"^(\d+) \|\|\| (.*) \|\|\| (-?\d+\.\d{4})$")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def expected(model_dir) -> list[str]:
    return Translator.load(model_dir, threads=1).translate(LINES, beam=2)


def fanyi(*args: str) -> list[str]:
    return [sys.executable, "-m", "fanyi", "translate", "--threads", "1", *args]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}  # output must be UTF-8 regardless
    return subprocess.run(
        fanyi(*args), input=stdin.encode(), capture_output=True, env=env, timeout=120, check=False
    )


def read_line(stream, timeout: float = 60.0) -> str:
    """One line from a pipe, failing instead of hanging if it does not come."""
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, "no output line within the timeout"
    return stream.readline().decode("utf-8")


def test_stdin_is_answered_line_by_line(model_dir, expected):
    with subprocess.Popen(
        fanyi("-m", str(model_dir), "--beam", "2"), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as process:
        for line, translation in zip(LINES, expected, strict=True):
            process.stdin.write(f"{line}\n".encode())
            process.stdin.flush()  # the next line is sent only after this one is answered
            assert read_line(process.stdout) == f"{translation}\n"
        process.stdin.close()
        assert process.stdout.read() == b""
        assert process.wait(timeout=60) == 0


def test_files_and_stdin_give_one_line_per_line(model_dir, expected, tmp_path):
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    done = run(
        "-m",
        str(model_dir),
        "--beam",
        "2",
        "-i",
        str(source),
        "-o",
        str(output),
        "--batch-tokens",
        "16",
    )
    assert done.returncode == 0, done.stderr.decode()
    assert output.read_text(encoding="utf-8").split("\n") == [*expected, ""]
    piped = run("-m", str(model_dir), "--beam", "2", stdin="\n".join(LINES))  # no final newline
    assert piped.stdout.decode("utf-8").split("\n") == [*expected, ""]
    assert expected[1] == expected[4] == ""


def test_n_best_format(model_dir, expected):
    done = run("-m", str(model_dir), "--beam", "3", "--n-best", "3", stdin="\n".join(LINES))
    assert done.returncode == 0, done.stderr.decode()
    entries: dict[int, list[tuple[str, float]]] = {}
    for line in done.stdout.decode("utf-8").splitlines():
        match = NBEST.match(line)
        assert match, line
        entries.setdefault(int(match[1]), []).append((match[2], float(match[3])))
    assert sorted(entries) == list(range(len(LINES)))
    for i, candidates in entries.items():
        scores = [score for _, score in candidates]
        assert scores == sorted(scores, reverse=True)
        assert len(candidates) == (1 if not LINES[i].strip() else 3)
    assert entries[1] == [("", 0.0)]


def test_text_option(model_dir, expected):
    done = run("-m", str(model_dir), "--beam", "2", "--text", LINES[0])
    assert done.stdout.decode("utf-8") == f"{expected[0]}\n"


def test_a_missing_model_is_a_clear_error(tmp_path):
    done = run("-m", str(tmp_path / "no-such-model"), "--text", "你好")
    assert done.returncode == 2
    assert "no-such-model" in done.stderr.decode() and "Traceback" not in done.stderr.decode()


def test_the_bundled_model_is_the_default():
    assert BUNDLED.is_dir()
    done = run("--text", "你好。")
    assert done.returncode == 0 and done.stdout.decode("utf-8").strip()


def test_without_a_bundled_model_the_error_says_what_to_do(tmp_path, monkeypatch):
    import fanyi.decode.translator as translator_module

    monkeypatch.setattr(translator_module, "BUNDLED", tmp_path / "bundled" / "zh-en")
    with pytest.raises(FileNotFoundError, match=r"no bundled model .*; pass -m DIR"):
        translator_module.Translator.load()

"""``fanyi translate -o`` loses no work: the output file is claimed before the model loads (an
existing one only with --overwrite), lines are written as they are done, Ctrl-C keeps every
finished line, and --resume completes a stopped run into what an uninterrupted one writes."""

import signal
import subprocess
import sys
import time

import pytest

from fanyi.cli import main
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # translates files, one in a subprocess

SOURCES = ["我很好。", "他在哪里？", "Thank you.", "Where is the station?", "你呢？"]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return str(tiny_model_dir(tmp_path_factory))


def translate(model_dir, *args: str) -> int:
    return main(["translate", "-m", model_dir, "--threads", "1", "--dtype", "fp32", *args])


@pytest.fixture(scope="module")
def whole(model_dir, tmp_path_factory) -> tuple:
    """A file of 600 lines and its uninterrupted translation."""
    root = tmp_path_factory.mktemp("resume")
    source = root / "in.txt"
    source.write_text("\n".join(SOURCES * 120) + "\n", encoding="utf-8")
    assert translate(model_dir, "-i", str(source), "-o", str(root / "whole.txt")) == 0
    return source, (root / "whole.txt").read_text(encoding="utf-8")


def test_an_existing_output_needs_overwrite(model_dir, whole, tmp_path, capsys):
    source, _ = whole
    out = tmp_path / "out.txt"
    out.write_text("the user's own\n", encoding="utf-8")
    assert translate(model_dir, "-i", str(source), "-o", str(out)) != 0
    assert "add --overwrite" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "the user's own\n"


def test_resume_completes_a_file_a_kill_cut_short(model_dir, whole, tmp_path):
    source, expected = whole
    lines = expected.splitlines(keepends=True)
    out = tmp_path / "out.txt"
    out.write_text("".join(lines[:7]) + lines[7][:3], encoding="utf-8")  # a line cut short
    assert translate(model_dir, "-i", str(source), "-o", str(out), "--resume") == 0
    assert out.read_text(encoding="utf-8") == expected


def test_ctrl_c_keeps_the_finished_lines_and_resume_finishes(model_dir, whole, tmp_path):
    source, expected = whole
    out = tmp_path / "out.txt"
    command = [sys.executable, "-m", "fanyi", "translate", "-m", model_dir, "--threads", "1"]
    command += ["--dtype", "fp32", "-i", str(source), "-o", str(out)]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    while process.poll() is None and not (out.exists() and out.stat().st_size):
        time.sleep(0.05)  # until the first window's lines are written
    process.send_signal(signal.SIGINT)
    process.wait()
    kept = out.read_text(encoding="utf-8")
    assert kept and expected.startswith(kept[: kept.rfind("\n") + 1])
    assert translate(model_dir, "-i", str(source), "-o", str(out), "--resume") == 0
    assert out.read_text(encoding="utf-8") == expected

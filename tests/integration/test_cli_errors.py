"""What a user sees when something is wrong: one line naming the file or flag and exit status 2,
never a traceback; a closed pipe ends ``fanyi translate`` quietly; Ctrl-C during start-up exits
130 without a traceback."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

import fanyi
from fanyi import Translator
from fanyi.cli import main
from fanyi.serve import Limits
from tiny_translator import tiny_model_dir


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture
def broken(model_dir, tmp_path):
    """A copy of the tiny model directory, to break."""
    return shutil.copytree(model_dir, tmp_path / "model", ignore=shutil.ignore_patterns("train*"))


def translate(capsys, *args: str) -> tuple[int, str]:
    """``fanyi translate --text 你好 ARGS`` in this process: (exit status, stderr)."""
    status = main(["translate", "--threads", "1", "--text", "你好", *args])
    return status, capsys.readouterr().err


def one_line(err: str) -> str:
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


def config(path) -> dict:
    return yaml.safe_load((path / "config.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "content", [b"", b"garbage" * 10, None], ids=["empty", "garbage", "truncated"]
)
def test_a_broken_weights_file(broken, capsys, content):
    weights = broken / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000] if content is None else content)
    status, err = translate(capsys, "-m", str(broken))
    assert status == 2 and f"{weights}: not a readable safetensors file" in one_line(err)


@pytest.mark.parametrize("content", [None, b"not a model"], ids=["missing", "corrupt"])
def test_a_missing_or_corrupt_sentencepiece_model(broken, capsys, content):
    spm = broken / config(broken)["vocab"]["src_model"]
    if content is None:
        spm.unlink()
    else:
        spm.write_bytes(content)
    status, err = translate(capsys, "-m", str(broken))
    assert status == 2 and str(spm) in one_line(err)
    assert ("not found" if content is None else "not a SentencePiece model") in err


@pytest.mark.parametrize(
    "text",
    ["", "- a list\n- not a mapping\n", "model: [unclosed\n", "model: {}\n"],
    ids=["empty", "not-a-mapping", "invalid-yaml", "sections-missing"],
)
def test_a_broken_config(broken, capsys, text):
    (broken / "config.yaml").write_text(text, encoding="utf-8")
    status, err = translate(capsys, "-m", str(broken))
    assert status == 2 and str(broken / "config.yaml") in one_line(err)


@pytest.mark.parametrize("key, value", [("h", 0), ("d_model", -8), ("dropout", float("nan"))])
def test_a_model_config_with_impossible_sizes(broken, capsys, key, value):
    sections = config(broken)
    sections["model"][key] = value
    (broken / "config.yaml").write_text(yaml.safe_dump(sections), encoding="utf-8")
    status, err = translate(capsys, "-m", str(broken))
    assert status == 2 and f"{key} must be" in one_line(err)  # h: 0 was a ZeroDivisionError


@pytest.mark.parametrize(
    "text, problem",
    [
        ("beam: !!python/object/apply:os.system [echo]\n", "could not determine a constructor"),
        ("beam: [unclosed\n", "at line 2, column 1: expected ',' or ']'"),
        ("beam: 2\n\tn_best: 1\n", "at line 2"),
    ],
    ids=["tag", "unclosed", "tab"],
)
def test_a_config_file_that_is_not_plain_yaml(model_dir, tmp_path, capsys, text, problem):
    path = tmp_path / "decode.yaml"
    path.write_text(text, encoding="utf-8")
    status, err = translate(capsys, "-m", str(model_dir), "--config", str(path))
    assert status == 2 and f"{path}: not valid YAML" in one_line(err) and problem in err


@pytest.mark.parametrize("name", ["../elsewhere/spm.model", "/etc/hostname"])
def test_a_vocabulary_outside_the_model_directory_is_refused(broken, capsys, name):
    sections = config(broken)
    sections["vocab"]["src_model"] = name
    (broken / "config.yaml").write_text(yaml.safe_dump(sections), encoding="utf-8")
    status, err = translate(capsys, "-m", str(broken))
    assert status == 2 and "outside the model directory" in one_line(err) and name in err


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--device", "banana", "not a device"),
        ("--device", "cuda", "CUDA is not available"),
        ("--threads", "-1", "at least 0"),
        ("--batch-tokens", "-5", "at least 1"),
        ("--batch-tokens", "0", "at least 1"),
        ("--threads", "100000", "at most 1024"),
        ("--batch-tokens", "1000000000", "at most 131072"),
    ],
)
def test_bad_flags(model_dir, capsys, flag, value, message):
    if value == "cuda" and __import__("torch").cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(SystemExit) as exit_:
        translate(capsys, "-m", str(model_dir), flag, value)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert f"argument {flag}: " in err.splitlines()[-1] and message in err


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--beam", "1000000000", "beam must be between 1 and 64, not 1000000000"),
        ("--n-best", "100", "n_best must be between 1 and 64, not 100"),
        ("--workers", "100000", "workers must be between 1 and 64, not 100000"),
        ("--max-len-a", "nan", "max_len_a must be between 0 and 1000000, not nan"),
        ("--max-len-a", "-1", "max_len_a must be between 0 and 1000000, not -1.0"),
        ("--max-len-b", "10000000000", "max_len_b must be between 0 and 1000000"),
        ("--min-len", "-3", "min_len must be between 0 and 1000000, not -3"),
        ("--length-penalty", "nan", "length_penalty must be a finite number"),
        ("--rerank-backward", "inf", "rerank_backward a finite one ≥ 0"),
        ("--temperature", "inf", "a finite temperature > 0"),
    ],
)
def test_sizes_and_numbers_out_of_bounds(model_dir, capsys, flag, value, message):
    status, err = translate(capsys, "-m", str(model_dir), flag, value)
    assert status == 2 and message in one_line(err)


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--port", "99999", "at most 65535"),
        ("--max-chars", "0", "at least 1"),
        ("--timeout", "nan", "a finite number of seconds > 0"),
        ("--timeout", "-1", "a finite number of seconds > 0"),
    ],
)
def test_bad_serve_flags(capsys, flag, value, message):
    with pytest.raises(SystemExit) as exit_:
        main(["serve", flag, value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert f"argument {flag}: " in err.splitlines()[-1] and message in err


def test_the_api_bounds_every_size(model_dir):
    with pytest.raises(ValueError, match="beam must be between 1 and 64"):
        Translator.load(model_dir, beam=10**9)
    with pytest.raises(ValueError, match="batch_tokens must be between 1 and 131072"):
        Translator.load(model_dir, batch_tokens=10**9)
    translator = Translator.load(model_dir, beam=2)
    with pytest.raises(ValueError, match="beam must be between 1 and 64"):
        translator(["你好。"], beam=10**9)
    with pytest.raises(ValueError, match="max_chars must be between 1 and"):
        Limits(max_chars=10**9)
    with pytest.raises(ValueError, match="timeout must be between"):
        Limits(timeout=float("nan"))
    with pytest.raises(ValueError, match="max_beam must be between 1 and 64"):
        Limits(max_beam=1000)


def test_a_device_as_output_is_refused(model_dir, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    status, err = translate(capsys, "-m", str(model_dir), "-o", "/dev/full")
    assert status == 2 and one_line(err).endswith(
        "/dev/full is a character device: fanyi writes a regular file as output"
    )


@pytest.mark.slow  # a translate subprocess
def test_a_full_disk_is_named(model_dir):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command(model_dir), input="我很好。\n".encode(), stdout=full, stderr=subprocess.PIPE
        )
    assert done.returncode == 2
    assert done.stderr.decode().strip().endswith("stdout: No space left on device")


def command(model_dir) -> list[str]:
    return [sys.executable, "-m", "fanyi", "translate", "-m", str(model_dir), "--threads", "1"]


@pytest.mark.slow  # a translate subprocess (about 8 s)
def test_a_closed_pipe_ends_quietly(model_dir):
    process = subprocess.Popen(
        command(model_dir), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdin.write("我很好。\n".encode())
    process.stdin.flush()
    assert process.stdout.readline()  # like `| head -1`: one line, then the pipe is closed
    process.stdout.close()
    process.stdin.write(b"Thank you.\n")  # its answer finds no reader
    process.stdin.close()
    assert process.wait(timeout=120) == 141  # as a shell reports a tool ended by SIGPIPE
    assert process.stderr.read() == b""


def _ctrl_c_as_at_a_terminal() -> None:
    """SIGINT's default action in the child, even when this suite runs as a background job of a
    shell without job control (which starts it with SIGINT ignored, as fanyi then leaves it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


SCRIPT = Path(sys.executable).parent / "fanyi"  # the console script, where it is installed


@pytest.mark.slow  # 14 subprocesses interrupted (about 20 s)
@pytest.mark.parametrize("script", [False, True], ids=["python-m", "script"])
@pytest.mark.parametrize("delay", [0.05, 0.1, 0.15, 0.3, 0.8, 1.5, 3.0])
def test_ctrl_c_during_start_up(model_dir, delay, script):
    if script and not SCRIPT.is_file():
        pytest.skip("no fanyi console script beside this Python")
    process = subprocess.Popen(
        [str(SCRIPT), *command(model_dir)[3:]] if script else command(model_dir),
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},  # a hang shows its stack below
        preexec_fn=_ctrl_c_as_at_a_terminal,
    )  # stdin stays open: it never finishes by itself
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    try:
        status = process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        process.wait()
        raise AssertionError(process.stderr.read().decode()) from None
    err = process.stderr.read().decode()
    process.stdin.close()
    if "Traceback" in err and _before_the_guard(err):
        pytest.skip("the signal came before fanyi's guard was set (a loaded machine)")
    assert status in (130, -signal.SIGINT) and "Traceback" not in err, err


def _before_the_guard(err: str) -> bool:
    """Whether a traceback's frames of fanyi are all in ``fanyi/__init__.py`` no later than the
    line that sets its SIGINT handler: the signal came before any of fanyi's own guard ran."""
    source = Path(fanyi.__file__).read_text(encoding="utf-8").splitlines()
    guard = next(n for n, line in enumerate(source, 1) if "exit_interrupted)" in line)
    frames = re.findall(r'File "([^"]+)", line (\d+)', err)
    ours = [(path, int(line)) for path, line in frames if "/fanyi/" in path]
    return all(path.endswith("fanyi/__init__.py") and line <= guard for path, line in ours)


@pytest.mark.slow  # a translate subprocess (about 10 s)
def test_ctrl_c_ignored_stays_ignored(model_dir):
    """Started with SIGINT ignored (``nohup``-like background jobs), fanyi ignores it throughout."""
    process = subprocess.Popen(
        command(model_dir),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    time.sleep(0.3)  # in start-up
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate("我很好。\n".encode(), timeout=120)
    assert process.returncode == 0 and len(out.splitlines()) == 1

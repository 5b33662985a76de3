"""The heavy commands re-execute themselves under tcmalloc and ask for expandable CUDA segments,
as programs only."""

import sys

import pytest

from fanyi import cli
from fanyi.cli import allocator


@pytest.fixture
def execs(monkeypatch):
    calls = []
    monkeypatch.setattr(allocator, "tcmalloc_library", lambda: "libtcmalloc_minimal.so.4")
    monkeypatch.setattr(allocator.os, "execve", lambda *args: calls.append(args))
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    monkeypatch.delenv(allocator.TCMALLOC_ENV, raising=False)
    return calls


def test_reexec_preloads_tcmalloc_once_unless_opted_out(monkeypatch, execs):
    monkeypatch.setattr(sys, "argv", ["fanyi", "train", "--max-steps", "3"])
    allocator.reexec_with_tcmalloc()
    ((_, argv, env),) = execs
    assert argv[1:] == ["-m", "fanyi", "train", "--max-steps", "3"]
    assert env["LD_PRELOAD"] == "libtcmalloc_minimal.so.4"
    monkeypatch.setenv("LD_PRELOAD", env["LD_PRELOAD"])  # the re-executed process: already loaded
    allocator.reexec_with_tcmalloc()
    monkeypatch.delenv("LD_PRELOAD")
    monkeypatch.setenv(allocator.TCMALLOC_ENV, "0")
    allocator.reexec_with_tcmalloc()
    assert len(execs) == 1


@pytest.mark.parametrize(
    "started",
    [["/venv/bin/fanyi"], ["-X", "importtime", "/venv/bin/fanyi"], ["-m", "fanyi"]],
)
def test_reexec_runs_the_command_line_the_process_started_with(monkeypatch, execs, started):
    args = ["translate", "--text", "你好"]
    monkeypatch.setattr(sys, "argv", ["/venv/bin/fanyi", *args])
    monkeypatch.setattr(sys, "orig_argv", ["/venv/bin/python", *started, *args])
    allocator.reexec_with_tcmalloc()
    ((_, argv, _),) = execs
    assert argv == [sys.executable, *started, *args]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tcmalloc is preloaded on Linux")
@pytest.mark.parametrize("command", ["translate", "evaluate", "serve", "train"])
def test_the_program_reexecs_for_heavy_commands_and_a_caller_never(monkeypatch, execs, command):
    monkeypatch.setattr(sys, "argv", ["fanyi", command, "--help"])
    with pytest.raises(SystemExit):  # execve is stubbed, so --help then runs here
        cli.main()
    assert len(execs) == 1
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])  # called from Python: this process is the caller's
    monkeypatch.setattr(sys, "argv", ["fanyi", "plot", "--help"])
    with pytest.raises(SystemExit):
        cli.main()
    assert len(execs) == 1


@pytest.mark.parametrize("command", ["translate", "train"])
def test_the_program_asks_for_expandable_cuda_segments_unless_set(monkeypatch, execs, command):
    monkeypatch.setenv(allocator.CUDA_ALLOC_ENV, "")  # restored as it was after the test
    monkeypatch.delenv(allocator.CUDA_ALLOC_ENV)
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])  # a caller's process keeps its environment
    assert allocator.CUDA_ALLOC_ENV not in allocator.os.environ
    monkeypatch.setattr(sys, "argv", ["fanyi", command, "--help"])
    with pytest.raises(SystemExit):
        cli.main()
    assert allocator.os.environ[allocator.CUDA_ALLOC_ENV] == "expandable_segments:True"
    monkeypatch.setenv(allocator.CUDA_ALLOC_ENV, "backend:cudaMallocAsync")
    with pytest.raises(SystemExit):
        cli.main()
    assert allocator.os.environ[allocator.CUDA_ALLOC_ENV] == "backend:cudaMallocAsync"


def test_a_script_reexecs_with_its_own_command_line(monkeypatch, execs):
    allocator.reexec_with_tcmalloc(["python", "benchmarks/decode.py", "--quick"])
    ((_, argv, env),) = execs
    assert argv == ["python", "benchmarks/decode.py", "--quick"]
    assert env["LD_PRELOAD"] == "libtcmalloc_minimal.so.4"

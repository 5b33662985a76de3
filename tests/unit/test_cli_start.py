"""``fanyi --help`` and ``fanyi --version`` answer at once: they import no command module, hence
no torch (they took 2-6 s importing every command), and list each command with its own help; an
unknown flag is the command's error, with the command's usage."""

import argparse
import importlib
import subprocess
import sys

import pytest

from fanyi.cli import COMMANDS, main

PROBE = """
import contextlib, io, sys
from fanyi.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main([{flag!r}])
    except SystemExit:
        pass
print(sorted(m for m in ("torch", "fanyi.cli.translate", "fanyi.model") if m in sys.modules))
"""


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_no_command(flag):
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(flag=flag)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_listed_help_is_each_commands_own():
    subparsers = argparse.ArgumentParser().add_subparsers()
    for name in COMMANDS:
        importlib.import_module(f"fanyi.cli.{name}").add_parser(subparsers)
    assert {a.dest: a.help for a in subparsers._choices_actions} == COMMANDS


def test_an_unknown_flag_prints_the_commands_usage(capsys):
    with pytest.raises(SystemExit) as done:
        main(["convert", "opus-mt-xx-en", "-o", "out", "--bogus"])
    assert done.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("usage: fanyi convert") and "unrecognized arguments: --bogus" in error

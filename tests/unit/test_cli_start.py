"""``fanyi --help`` and ``fanyi --version`` answer at once: they import no command module, hence
no torch (they took 2-6 s importing every command), and list each command with its own help; an
unknown flag is the command's error, with the command's usage."""

import argparse
import importlib
import signal
import subprocess
import sys
import unicodedata
from collections.abc import Iterator

import pytest

from fanyi import cli
from fanyi.cli import COMMANDS, build_parser, main
from fanyi.config import read_yaml
from fanyi.translate.translator import BUNDLED

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


COMMAND_HELP = """
import contextlib, io, sys
from fanyi.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    try:
        main({argv!r})
    except SystemExit:
        pass
assert out.getvalue().startswith("usage: fanyi"), out.getvalue()[:200]
print(sorted(m for m in ("torch", "fanyi.model.attention") if m in sys.modules))
"""


@pytest.mark.parametrize("command", [*COMMANDS, "plot curves", "plot attention"])
def test_every_commands_help_imports_no_torch(command):
    """``fanyi COMMAND --help`` prints its help without torch (it took 3-5 s of CPU importing
    it): a command's module imports what it runs with inside its run function."""
    argv = [*command.split(), "--help"]
    done = subprocess.run(
        [sys.executable, "-c", COMMAND_HELP.format(argv=argv)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]", f"fanyi {command} --help imports {done.stdout}"


def test_the_storage_formats_average_names_are_the_model_directorys():
    from fanyi.cli.average import STORAGE_FORMATS
    from fanyi.model_dir import STORAGE_FORMATS as stored

    assert sorted(STORAGE_FORMATS) == sorted(stored)


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


def _helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str]]:
    """The help of ``parser`` and of every sub-command under it, by program name."""
    yield parser.prog, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases share a parser
                yield from _helps(sub)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_help_is_plain_text(command):
    """No control characters (a non-raw docstring turned ``\\n`` and ``\\r`` into real ones)."""
    commands = build_parser(command)._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for prog, text in _helps(commands[command]):
        bad = sorted({repr(c) for c in text if unicodedata.category(c) == "Cc" and c != "\n"})
        assert not bad, f"{prog} --help holds {bad}"


def test_translate_help_names_the_models_defaults():
    """Not DecodeConfig's α 0.6 and λ 0: the model's own, here the bundled one's, without its
    weights (the help stays fast)."""
    commands = build_parser("translate")._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    text = " ".join(commands["translate"].format_help().split())
    decode = read_yaml(BUNDLED / "config.yaml")["decode"]  # α 3.0, λ 0.2 when this was written
    for key in ("length_penalty", "rerank_backward"):
        help = text.rsplit(f"--{key} VALUE", 1)[1].split(" --", 1)[0]  # its line of the help
        assert f"(default: the model's (bundled: {decode[key]!r}))" in help
    assert "(default: 1)" in text  # beam: DecodeConfig's, which no model overrides here


def test_an_error_a_library_makes_of_ctrl_c_ends_the_command_as_interrupted(monkeypatch, capsys):
    """torch turns a KeyboardInterrupt inside some of its C++ calls into an error of its own
    ("could not determine the shape of object type …"): after Ctrl-C, that is 130, not 2."""

    def interrupted_inside_a_library(args):
        with pytest.raises(KeyboardInterrupt):
            cli._interrupt(signal.SIGINT, None)  # what Ctrl-C runs once imports are done
        raise ValueError("could not determine the shape of object type 'UntypedStorage'")

    def failing(args):
        raise ValueError("a user's error")

    for func, status, said in (
        (interrupted_inside_a_library, 130, "interrupted"),
        (failing, 2, "a user's error"),
    ):
        namespace = argparse.Namespace(command="translate", func=func)
        monkeypatch.setattr(cli, "parse", lambda argv, namespace=namespace: namespace)
        assert main(["translate"]) == status  # the flag of one call never reaches the next
        assert said in capsys.readouterr().err

"""The engine registry: one list of engines, and ``compiled``, a deprecated name for fanyi's
engine with ``compile: true``, in the Python API and on the command line."""

from pathlib import Path

import pytest

from fanyi.cli import build_parser
from fanyi.decode.options import LoadOptions, SearchOptions
from fanyi.engines import registry
from fanyi.engines.registry import ENGINES, load_engine


@pytest.fixture
def loaded(monkeypatch) -> list[tuple[Path, LoadOptions]]:
    """fanyi's engine replaced by one that records what it was asked to load."""
    calls: list[tuple[Path, LoadOptions]] = []
    monkeypatch.setitem(
        ENGINES, "fanyi", lambda path, options, search: calls.append((path, options))
    )
    return calls


def test_the_engines_are_fanyi_ctranslate2_and_auto():
    assert sorted(ENGINES) == ["auto", "ctranslate2", "fanyi"]
    match = "no engine 'marian': choose one of fanyi, ctranslate2, auto"
    with pytest.raises(ValueError, match=match):
        load_engine("marian", Path("m"), LoadOptions(), SearchOptions())


def test_compiled_loads_fanyi_s_engine_with_compile_and_warns(loaded):
    with pytest.warns(DeprecationWarning, match="engine 'compiled' is deprecated.*compile=True"):
        load_engine("compiled", Path("m"), LoadOptions(dtype="fp32"), SearchOptions())
    [(path, options)] = loaded
    assert path == Path("m") and options.compile and options.dtype == "fp32"
    assert "compiled" in registry.ALIASES and "compiled" not in ENGINES


def test_engine_compiled_on_the_command_line_is_compile_true(capsys):
    args = build_parser("translate").parse_args(["translate", "--engine", "compiled"])
    assert (args.engine, args.compile) == ("fanyi", True)
    err = capsys.readouterr().err
    assert "--engine compiled is deprecated" in err and "use --engine fanyi --compile true" in err
    args = build_parser("translate").parse_args(["translate", "--engine", "ctranslate2"])
    assert (args.engine, args.compile) == ("ctranslate2", None)


def test_the_help_and_errors_name_only_the_engines(capsys):
    parser = build_parser("translate")
    with pytest.raises(SystemExit):
        parser.parse_args(["translate", "--help"])
    assert "--engine {auto,ctranslate2,fanyi}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        parser.parse_args(["translate", "--engine", "marian"])
    err = capsys.readouterr().err
    assert "invalid choice: 'marian' (choose from auto, ctranslate2, fanyi)" in err

"""Commands that write a model directory never delete what they did not write: a directory that
holds anything fanyi did not write is refused, a fanyi model is replaced only with
``--overwrite``, and a write that fails leaves no half-written directory behind and names the
destination."""

from __future__ import annotations

import errno

import pytest

from fanyi.atomic import staged_dir
from fanyi.cli import main
from fanyi.filenames import CONFIG_FILE, MODEL_FILE
from tiny_marian import build
from tiny_translator import tiny_model_dir


@pytest.fixture(scope="module")
def commands(tmp_path_factory) -> dict[str, list[str]]:
    """Each command that writes a model directory, as argv without ``-o OUT``."""
    model = tiny_model_dir(tmp_path_factory)
    marian = tmp_path_factory.mktemp("marian") / "opus-mt-xx-en"
    build(marian, "relu", eos_bias=3.0)
    return {
        "ensemble": ["ensemble", str(model), str(model)],
        "convert": ["convert", str(marian)],
        "average": ["average", str(model.parent), "--last", "1"],  # the model's run
        "soup": ["average", "--models", str(model), str(model)],
    }


@pytest.mark.parametrize("command", ["ensemble", "convert", "average", "soup"])
def test_a_users_directory_is_refused_and_kept(commands, command, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "MY_THESIS.txt").write_text("precious", encoding="utf-8")
    for extra in ([], ["--overwrite"]):
        assert main([*commands[command], "-o", str(out), *extra]) == 2
        assert "fanyi did not write" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["MY_THESIS.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary directory left


@pytest.mark.parametrize("command", ["ensemble", "convert", "average", "soup"])
def test_a_fanyi_model_is_replaced_only_with_overwrite(commands, command, tmp_path, capsys):
    out = tmp_path / "out"
    assert main([*commands[command], "-o", str(out)]) == 0
    before = (out / CONFIG_FILE).stat().st_mtime_ns
    assert main([*commands[command], "-o", str(out)]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert (out / CONFIG_FILE).stat().st_mtime_ns == before
    assert main([*commands[command], "-o", str(out), "--overwrite"]) == 0
    assert (out / CONFIG_FILE).stat().st_mtime_ns != before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_an_empty_directory_is_written_into(commands, tmp_path):
    (tmp_path / "out").mkdir()
    assert main([*commands["ensemble"], "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "member-1" / MODEL_FILE).is_file()


def test_a_failed_write_leaves_nothing_and_names_the_destination(tmp_path):
    full = pytest.raises(OSError, match=f"writing {tmp_path / 'out'}: No space left")
    with full, staged_dir(tmp_path / "out") as tmp:
        (tmp / "model.bin").write_bytes(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_a_soup_needs_an_output_and_one_kind_of_input(commands, capsys):
    assert main(commands["soup"]) == 2
    assert "--models needs -o OUT" in capsys.readouterr().err
    assert main([*commands["average"], *commands["soup"][1:], "-o", "x"]) == 2
    assert "either a RUN directory or --models" in capsys.readouterr().err

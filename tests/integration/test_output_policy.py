"""One output policy for every command that writes: a user's file or folder is never written
over (``--overwrite`` replaces only what fanyi wrote, as its marker lists it), only regular
files and folders are outputs (a FIFO, a device or a link is refused), the output is checked
before any work (no model loaded, nothing translated or read), and nothing temporary is left."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat

import pytest
from safetensors import SafetensorError

from fanyi import model_dir as model_dir_module
from fanyi.atomic import replace_dir
from fanyi.cli import main
from fanyi.filenames import CONFIG_FILE, MODEL_FILE, OUTPUT_MARKER
from fanyi.outputs import claim_dir, claim_file, write_file
from tiny_marian import build
from tiny_translator import tiny_model_dir

CATALOGUE = 'msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n\nmsgid "Thank you."\nmsgstr ""\n'


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def marian(tmp_path_factory):
    path = tmp_path_factory.mktemp("marian") / "opus-mt-xx-en"
    build(path, "relu", eos_bias=3.0)
    return path


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def users_folder(path):
    """A folder holding a user's work."""
    path.mkdir()
    (path / "MY_THESIS.txt").write_text("precious", encoding="utf-8")
    return path


def untouched(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- files: po, evaluate, data hsk ---


def file_commands(tmp_path, output) -> dict[str, list[str]]:
    """Each command that writes a file, with a model that does not exist: the output's error
    must come first."""
    source = tmp_path / "in.po"
    source.write_text(CATALOGUE, encoding="utf-8")
    (tmp_path / "src.txt").write_text("你好\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("Hello\n", encoding="utf-8")
    missing = str(tmp_path / "no-model")
    return {
        "po": ["po", str(source), "-o", str(output), "-m", missing],
        "evaluate": [
            *["evaluate", "-m", missing, "--src", str(tmp_path / "src.txt")],
            *["--ref", str(tmp_path / "ref.txt"), "-o", str(output)],
        ],
    }


@pytest.mark.parametrize("command", ["po", "evaluate"])
def test_a_users_file_is_not_written_over_and_found_out_first(tmp_path, capsys, command):
    output = tmp_path / "mine.txt"
    output.write_text("precious", encoding="utf-8")
    assert main(file_commands(tmp_path, output)[command]) == 2
    assert "add --overwrite" in one_line(capsys)  # not the missing model: found out first
    assert output.read_text(encoding="utf-8") == "precious"


@pytest.mark.parametrize("command", ["po", "evaluate"])
@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "link", "no folder"])
def test_only_a_regular_file_is_an_output(tmp_path, capsys, command, kind):
    output = {
        "fifo": tmp_path / "fifo",
        "device": "/dev/null",
        "folder": tmp_path / "folder",
        "link": tmp_path / "link",
        "no folder": tmp_path / "missing" / "out.txt",
    }[kind]
    if kind == "fifo":
        os.mkfifo(output)
    elif kind == "folder":
        output.mkdir()
    elif kind == "link":
        (tmp_path / "target.txt").write_text("precious", encoding="utf-8")
        output.symlink_to(tmp_path / "target.txt")
    before = sorted(p.name for p in tmp_path.iterdir())
    args = [*file_commands(tmp_path, output)[command], "--overwrite"]
    assert main(args) == 2
    one_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {*before, "in.po", "src.txt", "ref.txt"}
    )
    if kind == "fifo":
        assert stat.S_ISFIFO(os.lstat(output).st_mode)
    if kind == "link":
        assert output.is_symlink() and (tmp_path / "target.txt").read_text() == "precious"


def test_a_file_is_replaced_with_overwrite_through_a_temporary_file(tmp_path):
    output = tmp_path / "out.txt"
    write_file(claim_file(output, overwrite=False), "one\n")
    with pytest.raises(ValueError, match="add --overwrite"):
        claim_file(output, overwrite=False)
    write_file(claim_file(output, overwrite=True), "two\n")
    assert output.read_text() == "two\n" and os.listdir(tmp_path) == ["out.txt"]


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    def full_disk(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match=f"writing {tmp_path / 'out.txt'}: No space left"):
        write_file(tmp_path / "out.txt", "text")
    assert os.listdir(tmp_path) == []


# --- folders: the model directories (convert, average, ensemble, export) ---


@pytest.fixture(scope="module")
def folder_commands(model, marian) -> dict[str, list[str]]:
    return {
        "ensemble": ["ensemble", str(model), str(model)],
        "convert": ["convert", str(marian)],
        "average": ["average", str(model.parent), "--last", "1"],
        "export": ["export", str(model), "--format", "huggingface"],
    }


COMMANDS = ["ensemble", "convert", "average", "export"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_users_file_inside_a_fanyi_model_is_never_deleted(
    folder_commands, tmp_path, capsys, command
):
    out = tmp_path / "out"
    assert main([*folder_commands[command], "-o", str(out)]) == 0
    assert (out / OUTPUT_MARKER).is_file()
    capsys.readouterr()  # what the first write said
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert main([*folder_commands[command], "-o", str(out), "--overwrite"]) == 2
    assert "notes.txt" in one_line(capsys)
    assert (out / "notes.txt").read_text() == "mine" and (out / OUTPUT_MARKER).is_file()
    (out / "notes.txt").unlink()
    assert main([*folder_commands[command], "-o", str(out), "--overwrite"]) == 0
    assert untouched(tmp_path) == ["out"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_that_looks_like_a_model_is_not_fanyis(
    folder_commands, model, tmp_path, capsys, command
):
    out = tmp_path / "out"
    # config.yaml with model and vocab sections, but no marker (an older fanyi's, or a user's)
    shutil.copytree(model, out, ignore=shutil.ignore_patterns(OUTPUT_MARKER))
    before = untouched(out)
    assert main([*folder_commands[command], "-o", str(out), "--overwrite"]) == 2
    assert "fanyi did not write" in one_line(capsys)
    assert untouched(out) == before and untouched(tmp_path) == ["out"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_link_as_output_is_refused_and_left_as_it_was(folder_commands, tmp_path, capsys, command):
    target = users_folder(tmp_path / "target")
    link = tmp_path / "link"
    link.symlink_to(target, target_is_directory=True)
    assert main([*folder_commands[command], "-o", str(link), "--overwrite"]) == 2
    assert "symbolic link" in one_line(capsys)
    assert link.is_symlink() and untouched(target) == ["MY_THESIS.txt"]
    assert untouched(tmp_path) == ["link", "target"]  # no temporary name left


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_or_a_fifo_is_not_an_output_folder(folder_commands, tmp_path, capsys, command):
    (tmp_path / "file").write_text("precious", encoding="utf-8")
    os.mkfifo(tmp_path / "fifo")
    for name in ("file", "fifo"):
        assert main([*folder_commands[command], "-o", str(tmp_path / name), "--overwrite"]) == 2
        one_line(capsys)
    assert (tmp_path / "file").read_text() == "precious"
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)


@pytest.mark.parametrize("command", ["average", "convert"])
def test_a_full_disk_is_one_line_and_leaves_nothing(
    folder_commands, tmp_path, monkeypatch, capsys, command
):
    def full_disk(*args, **kwargs):
        raise SafetensorError("Error while serializing: I/O error: No space left on device")

    monkeypatch.setattr(model_dir_module, "save_file", full_disk)
    out = tmp_path / "out"
    assert main([*folder_commands[command], "-o", str(out)]) == 2
    assert f"writing {out}" in one_line(capsys)
    assert untouched(tmp_path) == []


def test_the_output_is_claimed_before_the_model_is_read(tmp_path, capsys):
    out = users_folder(tmp_path / "out")
    for args in (
        ["export", str(tmp_path / "no-model"), "--format", "ctranslate2"],
        ["ensemble", str(tmp_path / "a"), str(tmp_path / "b")],
        ["convert", str(tmp_path / "no-marian")],
    ):
        assert main([*args, "-o", str(out), "--overwrite"]) == 2
        assert "fanyi did not write" in one_line(capsys)


def test_the_marker_lists_what_fanyi_wrote(folder_commands, tmp_path):
    out = tmp_path / "out"
    assert main([*folder_commands["ensemble"], "-o", str(out)]) == 0
    listed = json.loads((out / OUTPUT_MARKER).read_text())["files"]
    assert f"member-1/{MODEL_FILE}" in listed and CONFIG_FILE in listed
    assert claim_dir(out, overwrite=True) == out


# --- fanyi data, prepare, train ---


def test_data_refuses_a_source_that_does_not_exist(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["data", "python-docs", str(tmp_path / "nowhere"), "-o", str(out)]) == 2
    assert "nowhere does not exist" in one_line(capsys)
    assert not out.exists()


def test_data_refuses_a_source_without_pairs(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["data", "python-docs", str(tmp_path / "empty"), "-o", str(tmp_path / "o")]) == 2
    assert "no python-docs pairs" in one_line(capsys)


def test_data_does_not_replace_a_users_folder(tmp_path, capsys):
    source = tmp_path / "snapshot"
    source.mkdir()
    (source / "a.po").write_text('msgid "Reading files"\nmsgstr "读取文件"\n', encoding="utf-8")
    out = users_folder(tmp_path / "out")
    (out / "train.tsv").write_text("mine\tmine\tmine\n", encoding="utf-8")
    args = ["data", "python-docs", str(source), "-o", str(out)]
    assert main([*args, "--overwrite"]) == 2
    assert "fanyi did not write" in one_line(capsys)
    assert (out / "train.tsv").read_text() == "mine\tmine\tmine\n"
    fresh = tmp_path / "fresh"
    assert main([*args[:-1], str(fresh)]) == 0
    capsys.readouterr()
    assert main([*args[:-1], str(fresh)]) == 2
    assert "add --overwrite" in one_line(capsys)
    assert main([*args[:-1], str(fresh), "--overwrite"]) == 0


def test_data_branches_that_are_no_pattern_are_one_line(tmp_path, capsys):
    (tmp_path / "src").mkdir()
    args = [
        "data",
        "python-docs",
        str(tmp_path / "src"),
        "--branches",
        "(",
        "-o",
        str(tmp_path / "o"),
    ]
    assert main(args) == 2
    assert "not a regular expression" in one_line(capsys)


def test_data_hsk_does_not_write_over_a_file(tmp_path, capsys):
    output = tmp_path / "hsk.tsv"
    output.write_text("precious", encoding="utf-8")
    assert main(["data", "hsk", "-o", str(output)]) == 2
    assert "add --overwrite" in one_line(capsys)
    assert output.read_text() == "precious"


def test_prepare_does_not_write_into_a_users_folder(tmp_path, capsys):
    out = users_folder(tmp_path / "out")
    (tmp_path / "corpus.tsv").write_text("Hi.\t你好。\n" * 50, encoding="utf-8")
    args = ["prepare", "--train", str(tmp_path / "corpus.tsv"), "--out-dir", str(out)]
    assert main([*args, "--overwrite"]) == 2
    assert "fanyi did not write" in one_line(capsys)
    assert untouched(out) == ["MY_THESIS.txt"]


def test_train_does_not_start_a_run_in_a_folder_that_holds_one(tmp_path, capsys):
    out = users_folder(tmp_path / "run")
    assert main(["train", "--out-dir", str(out), "--data-dir", str(tmp_path / "none")]) == 2
    assert "not an empty folder" in one_line(capsys)
    (out / "MY_THESIS.txt").unlink()
    (out / "checkpoints.json").write_text("{}", encoding="utf-8")
    assert main(["train", "--out-dir", str(out), "--data-dir", str(tmp_path / "none")]) == 2
    assert "--resume" in one_line(capsys)


def test_replacing_a_link_removes_the_link_never_its_target(tmp_path):
    target = users_folder(tmp_path / "target")
    (tmp_path / "link").symlink_to(target, target_is_directory=True)
    new = tmp_path / "new"
    new.mkdir()
    (new / "model.safetensors").write_bytes(b"weights")
    replace_dir(new, tmp_path / "link")
    assert not (tmp_path / "link").is_symlink() and untouched(tmp_path / "link") == [MODEL_FILE]
    assert untouched(target) == ["MY_THESIS.txt"] and untouched(tmp_path) == ["link", "target"]

"""One input policy for every file fanyi reads from a user: regular files only (a FIFO is refused
without waiting, a device without reading it), sizes bounded before reading and compressed
files by their decompressed size, YAML and JSON bounded in depth and in values once aliases are
expanded, and each refusal one short line that names the file."""

from __future__ import annotations

import gzip
import json
import os

import pytest

from fanyi import inputs
from fanyi.cli import main
from fanyi.config import parse_yaml, read_yaml
from fanyi.data.build import cedict
from fanyi.model_dir import read_index

BOMB = """\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
model: {d_model: *i}
"""


def short(error: pytest.ExceptionInfo, path) -> str:
    """The message of ``error``: one line, short, naming ``path``."""
    message = str(error.value)
    assert str(path) in message and "\n" not in message and len(message) < 400, message
    return message


@pytest.mark.parametrize("kind", ["fifo", "device", "link to a device", "folder"])
def test_only_a_regular_file_is_read(tmp_path, kind):
    path = tmp_path / "config.yaml"
    if kind == "fifo":
        os.mkfifo(path)  # opened for reading, it would wait for a writer for ever
    elif kind == "device":
        path = "/dev/zero"  # read, it would fill the memory
    elif kind == "link to a device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with pytest.raises(ValueError, match="not a regular file") as error:
        read_yaml(path)
    short(error, path)


def test_a_file_larger_than_its_limit_is_refused_unread(tmp_path):
    path = tmp_path / "config.yaml"
    with open(path, "wb") as f:
        f.truncate(inputs.CONFIG_BYTES + 1)  # sparse: nothing to write
    with pytest.raises(ValueError, match="more than") as error:
        read_yaml(path)
    short(error, path)


def test_a_yaml_alias_bomb_is_refused_in_one_short_line(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(BOMB, encoding="utf-8")
    with pytest.raises(ValueError, match="aliases expanded") as error:
        read_yaml(path)
    short(error, path)


@pytest.mark.parametrize(
    "text", ["[" * 5000 + "]" * 5000, "a:\n" + "".join(f"{'  ' * i}b{i}:\n" for i in range(1, 200))]
)
def test_deep_yaml_is_refused(text):
    with pytest.raises(ValueError, match="nested more than"):
        parse_yaml(text)


def test_a_recursive_alias_is_refused():
    with pytest.raises(ValueError, match="holds itself"):
        parse_yaml("a: &a [*a]")


def test_shared_values_within_the_limits_are_read():
    assert parse_yaml("a: &a {x: 1}\nb: *a") == {"a": {"x": 1}, "b": {"x": 1}}


def test_deep_json_is_one_line_naming_the_file(tmp_path):
    (tmp_path / "checkpoints.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested more than") as error:
        read_index(tmp_path)
    short(error, tmp_path / "checkpoints.json")


def test_a_gzip_bomb_is_refused_by_its_decompressed_size(tmp_path, monkeypatch, capsys):
    bomb = tmp_path / "cedict.txt.gz"
    bomb.write_bytes(gzip.compress(b"\0" * (2 << 20)))  # 2 MiB of zeros in 2 KiB
    monkeypatch.setattr(cedict, "MAX_BYTES", 1 << 20)  # as 256 MiB is to a 3 GB bomb
    assert main(["data", "cedict", str(bomb), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "once decompressed" in err and str(bomb) in err and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["cedict.txt.gz"]


def test_gunzipped_reads_a_gzip_within_its_limit():
    assert inputs.gunzipped(gzip.compress(b"hello"), "x.gz", limit=5) == b"hello"
    assert inputs.gunzipped(b"plain", "x.txt", limit=5) == b"plain"
    with pytest.raises(ValueError, match=r"x\.gz: not a readable gzip"):
        inputs.gunzipped(b"\x1f\x8b garbage", "x.gz")


def test_text_that_is_not_utf8_names_the_file_and_byte(tmp_path):
    path = tmp_path / "data.yaml"
    path.write_bytes(b"a: \xff\n")
    with pytest.raises(ValueError, match=r"not utf-8 text \(byte 3 is 0xff\)") as error:
        read_yaml(path)
    short(error, path)


def test_json_is_bounded_too():
    wide = json.dumps(list(range(inputs.MAX_NODES + 1)))
    with pytest.raises(ValueError, match="more than"):
        inputs.parse_json(wide, "big.json")


@pytest.mark.parametrize("kind", ["fifo", "latin-1"])
def test_a_text_file_that_is_no_utf8_file_is_one_line_naming_it(tmp_path, capsys, kind):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    ref.write_text("Hello.\n", encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(hyp)
    else:
        hyp.write_bytes("Café.\n".encode("latin-1"))
    assert main(["evaluate", "--hyp", str(hyp), "--ref", str(ref)]) == 2
    err = capsys.readouterr().err
    assert str(hyp) in err and "Traceback" not in err and len(err.splitlines()) == 1, err

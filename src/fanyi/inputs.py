"""What fanyi reads from a user, under one policy: regular files only, their size bounded before
they are read, structured text (YAML, JSON) bounded in depth and in size once its aliases are
expanded, and every refusal one line that names the file.

A path that names a FIFO would make a reader wait for a writer that never comes; one that names
a character device (``/dev/zero``, through a symbolic link or not) would be read until memory
runs out. Files are therefore opened without blocking and checked on the opened descriptor
(``fstat``) before a byte is read, so that nothing can be swapped in between. A YAML alias bomb
("billion laughs") is small on disk and as loaded (each alias is one shared object), but grows
without end wherever it is walked or printed: the count of its nodes with every alias expanded
is what is bounded.
"""

from __future__ import annotations

import json
import os
import stat
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# Sizes, each far above what fanyi itself writes or a real corpus of the kind holds.
# input lines sorted into batches together: a window small enough that the first lines are
# written (and kept on Ctrl-C) within a batch or two, large enough to batch by length
WINDOW_LINES = 256
CONFIG_BYTES = 8 << 20  # config.yaml, config.json, checkpoints.json, a piece table
VOCABULARY_BYTES = 64 << 20  # a SentencePiece model (64k pieces: about 1 MB)
CATALOGUE_BYTES = 64 << 20  # a gettext catalogue (python-docs' largest: under 1 MB)
DECOMPRESSED_BYTES = 1 << 30  # a compressed corpus once decompressed (CC-CEDICT: about 10 MB)
TEXT_BYTES = 1 << 34  # a text file read whole (sources, references, translations of a corpus)
MAX_DEPTH = 64  # nesting of a YAML or JSON document (fanyi's own: 3)
MAX_NODES = 1_000_000  # values of a YAML or JSON document, each alias expanded

_KINDS = {
    stat.S_ISDIR: "a folder",
    stat.S_ISFIFO: "a FIFO",
    stat.S_ISCHR: "a character device",
    stat.S_ISBLK: "a block device",
    stat.S_ISSOCK: "a socket",
}


def kind(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a FIFO", "a folder", "a regular file")."""
    return next((name for test, name in _KINDS.items() if test(mode)), "a regular file")


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of regular file ``path`` (a link is followed), refused without reading when it
    is anything else or larger than ``limit`` bytes."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode, size = (found := os.fstat(fd)).st_mode, found.st_size
        if not stat.S_ISREG(mode):
            raise ValueError(f"{path} is {kind(mode)}, not a regular file: fanyi reads files only")
        if size > limit:
            raise ValueError(f"{path}: {size:,} bytes, more than the {limit:,} fanyi reads")
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        data = f.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise ValueError(f"{path}: more than the {limit:,} bytes fanyi reads")
    return data


def check_regular(path: str | Path) -> os.stat_result:
    """The status of regular file ``path`` (a link is followed), for a reader that opens it by
    name itself (safetensors, SentencePiece): anything else is refused, a FIFO without
    waiting for a writer."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        found = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(found.st_mode):
        raise ValueError(
            f"{path} is {kind(found.st_mode)}, not a regular file: fanyi reads files only"
        )
    return found


def read_text(path: str | Path, limit: int = CONFIG_BYTES) -> str:
    """The UTF-8 text of regular file ``path`` (at most ``limit`` bytes): ``read_bytes``."""
    return decoded(read_bytes(path, limit), path)


def decoded(data: bytes, path: str | Path, encoding: str = "utf-8") -> str:
    """``data`` read from ``path`` decoded, or a ValueError naming the file and the byte."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path}: not {encoding} text (byte {error.start} is {data[error.start]:#04x})"
        ) from None


def gunzipped(data: bytes, path: str | Path, limit: int = DECOMPRESSED_BYTES) -> bytes:
    """``data`` decompressed when it is gzip (else as it is), refused as soon as it passes
    ``limit`` bytes decompressed (a small file can hold gigabytes of zeros)."""
    if data[:2] != b"\x1f\x8b":
        return data
    inflate = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(data, limit + 1)
    except zlib.error as error:
        raise ValueError(f"{path}: not a readable gzip file ({error})") from None
    if len(out) > limit:
        raise ValueError(f"{path}: more than {limit:,} bytes once decompressed")
    return out


def parse_json(text: str | bytes, where: str | Path) -> Any:
    """The value of JSON ``text`` read from ``where``, bounded (:func:`check_shape`); a
    ValueError naming ``where`` for anything else."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"{where}: JSON nested more than {MAX_DEPTH} deep") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{where}: not valid JSON ({error})") from None
    check_shape(value, where)
    return value


def read_json(path: str | Path, limit: int = CONFIG_BYTES) -> Any:
    """The value of JSON file ``path``: :func:`read_bytes`, then :func:`parse_json`."""
    return parse_json(read_bytes(path, limit), path)


def check_shape(value: Any, where: str | Path) -> None:
    """Refuse ``value`` (read from ``where``) when it is nested more than ``MAX_DEPTH`` deep,
    holds more than ``MAX_NODES`` values with each shared one counted where it appears (a YAML
    alias), or holds itself."""
    try:
        bounded(value)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def bounded(value: Any) -> None:
    """:func:`check_shape` without a file to name: a ValueError saying what is too large."""
    try:
        _measure(value, 0, {}, set())
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None


def _measure(
    value: Any, depth: int, seen: dict[int, tuple[int, int]], open_: set[int]
) -> tuple[int, int]:
    """(values, height) of ``value`` reached ``depth`` deep; ``seen`` memoises shared ones."""
    children = _children(value)
    if children is None:
        return 1, 0
    key = id(value)
    if key in open_:
        raise ValueError("a value that holds itself (a recursive alias)")
    size, height = seen.get(key) or _measure_new(value, children, depth, seen, open_)
    if depth + height > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return size, height


def _measure_new(
    value: Any, children: Iterable[Any], depth: int, seen: dict, open_: set[int]
) -> tuple[int, int]:
    if depth > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    open_.add(id(value))
    size, height = 1, 0
    for child in children:
        child_size, child_height = _measure(child, depth + 1, seen, open_)
        size, height = size + child_size, max(height, child_height + 1)
        if size > MAX_NODES:
            raise ValueError(f"more than {MAX_NODES:,} values (aliases expanded)")
    open_.discard(id(value))
    seen[id(value)] = size, height
    return size, height


def _children(value: Any) -> Iterable[Any] | None:
    """The values ``value`` holds (a mapping's keys and values), or None for a scalar."""
    if isinstance(value, dict):
        return [item for pair in value.items() for item in pair]
    if isinstance(value, list | tuple | set | frozenset):
        return value
    return None

"""Where a command writes, under one policy: never over what a user owns.

- Before any work (loading a model, translating, reading a corpus), the output is claimed:
  :func:`claim_file` or :func:`claim_dir`. Only a regular file or a folder may be an output; a
  symbolic link, a FIFO or a device is refused, and so is a path whose folder is missing.
- An existing file is replaced only with ``--overwrite``. An existing folder is replaced only
  with ``--overwrite``, and only when fanyi wrote it: every folder a command writes whole holds
  a marker (``OUTPUT_MARKER``) that lists the files written there, and a folder holding a file
  the marker does not list (a user's notes put in a model directory) is never replaced. An
  empty folder is free; a folder without a marker is never fanyi's, whatever it holds.
- The output is written under a temporary name beside it and renamed into place at the end
  (:func:`write_file`, :func:`publish_dir`); a failure leaves no temporary file behind.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ._version import __version__
from .atomic import fsync_files, replace_dir, staged_dir, write_bytes_atomic
from .filenames import OUTPUT_MARKER
from .inputs import kind, read_json

OVERWRITE_HELP = "replace an output fanyi wrote (never a file or folder it did not write)"


def claim_file(path: str | Path, overwrite: bool) -> Path:
    """``path``, checked as a file to write: refused when it is a link, a folder or not a
    regular file, when its folder is missing, and when it exists unless ``overwrite``."""
    path = Path(path)
    found = _lstat(path)
    if found is None:
        if not path.parent.is_dir():
            raise ValueError(f"{path}: no folder {path.parent} to write it in")
        return path
    _refuse_link(path, found.st_mode)
    if not stat.S_ISREG(found.st_mode):
        raise ValueError(f"{path} is {kind(found.st_mode)}: fanyi writes a regular file as output")
    if not overwrite:
        raise ValueError(f"{path} exists; add --overwrite to replace it")
    return path


def claim_dir(path: str | Path, overwrite: bool, whole: bool = True) -> Path:
    """``path``, checked as a folder to write: free when missing or empty; refused when it is a
    link or not a folder, when fanyi did not write it (no marker, or, for a folder replaced
    ``whole``, a file the marker does not list), and when fanyi did unless ``overwrite``. A
    writer that is not ``whole`` writes its own files into the folder and removes nothing
    else."""
    path = Path(path)
    found = _lstat(path)
    if found is None:
        return path
    _refuse_link(path, found.st_mode)
    if not stat.S_ISDIR(found.st_mode):
        raise ValueError(f"{path} is {kind(found.st_mode)}, not a folder: choose another output")
    if is_free(path):
        return path
    unlisted = not_written_by_fanyi(path)
    marker = path / OUTPUT_MARKER
    if unlisted and (whole or marker.is_symlink() or not marker.is_file()):
        raise ValueError(
            f"{path} holds files fanyi did not write ({', '.join(unlisted[:3])}); "
            "choose another output folder"
        )
    if not overwrite:
        raise ValueError(f"{path} holds what fanyi wrote earlier; add --overwrite to replace it")
    return path


def is_free(path: Path) -> bool:
    """Whether ``path`` is missing or an empty folder (a link or a file is not free)."""
    if not os.path.lexists(path):
        return True
    return path.is_dir() and not path.is_symlink() and not any(path.iterdir())


def not_written_by_fanyi(path: Path) -> list[str]:
    """The entries of folder ``path`` that its marker does not list as written by fanyi (all
    of them when it has no readable marker)."""
    present = entries(path)
    marker = path / OUTPUT_MARKER
    if OUTPUT_MARKER not in present or marker.is_symlink():
        return present or [OUTPUT_MARKER]
    try:
        listed = read_json(marker).get("files", [])
    except (OSError, ValueError, AttributeError):
        return present
    written = {name for name in listed if isinstance(name, str)} | {OUTPUT_MARKER}
    return [name for name in present if name not in written]


def entries(root: Path) -> list[str]:
    """Every file, link and other non-folder under ``root``, as a path relative to it (links
    are not followed: a link is an entry of its own)."""
    found = []
    for folder, folders, files in os.walk(root):
        inside = Path(folder).relative_to(root)
        links = [name for name in folders if (Path(folder) / name).is_symlink()]
        found += [(inside / name).as_posix() for name in [*files, *links]]
    return sorted(found)


def mark(directory: Path) -> None:
    """Write ``directory``'s marker: the files in it now, as written by fanyi."""
    listed = [name for name in entries(directory) if name != OUTPUT_MARKER]
    record = {"written_by": f"fanyi {__version__}", "files": listed}
    (directory / OUTPUT_MARKER).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def publish_dir(staged: Path, path: Path) -> None:
    """Put folder ``staged`` (written in full) at ``path`` in one step, marked as fanyi's and
    flushed to disk first."""
    mark(staged)
    for folder, _, _ in os.walk(staged):
        fsync_files(Path(folder))
    replace_dir(staged, path)


@contextmanager
def written_dir(path: Path) -> Iterator[Path]:
    """A temporary folder beside ``path`` (claimed before) to write into; when the block ends
    it is published at ``path`` (:func:`publish_dir`), and when it fails it is removed."""
    with staged_dir(path) as staged:
        yield staged
        publish_dir(staged, path)


def write_file(path: str | Path, data: str | bytes, encoding: str = "utf-8") -> None:
    """Write ``data`` (text in ``encoding``) at ``path``, claimed before: through a temporary
    file beside it, renamed into place; none is left behind on failure."""
    raw = data.encode(encoding) if isinstance(data, str) else data
    write_bytes_atomic(Path(path), raw)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return path.lstat()
    except FileNotFoundError:
        return None


def _refuse_link(path: Path, mode: int) -> None:
    if stat.S_ISLNK(mode):
        raise ValueError(
            f"{path} is a symbolic link (to {os.readlink(path)}); give the path it leads to, "
            "or another one"
        )

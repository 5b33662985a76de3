"""Writing a directory under a temporary name and replacing another with it in one step, so that
a crash never leaves its name pointing at nothing, nor a half-written directory under it; files
and directories flushed to disk before they are renamed into place.

``os.replace`` cannot put a directory where a non-empty one stands. On Linux, ``renameat2``
with ``RENAME_EXCHANGE`` swaps the two in one atomic step; the old one, now under the temporary
name, is then removed. Where the system cannot swap, the old directory is first moved aside: a
crash between the two renames then leaves the name empty, with the old directory beside it.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@contextmanager
def staged_dir(path: Path) -> Iterator[Path]:
    """A fresh temporary directory beside ``path`` to write into. If the block fails it is
    removed, and an OSError (a full disk) names ``path``, the directory being written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    tmp.chmod(0o755)  # as mkdir would make it, not mkdtemp's owner-only mode
    try:
        yield tmp
    except OSError as error:
        shutil.rmtree(tmp, ignore_errors=True)
        raise OSError(error.errno, f"writing {path}: {error.strerror or error}") from error
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def replace_dir(new: Path, path: Path) -> None:
    """Put directory ``new`` at ``path``, replacing what is there (a directory, or a link or file
    the caller chose to replace, or nothing)."""
    if not os.path.lexists(path):
        os.replace(new, path)
    elif exchange(new, path):
        remove(new)  # what was at ``path``, under the temporary name since the swap
    else:
        aside = path.with_name(f".{path.name}.old")
        remove(aside)
        os.replace(path, aside)
        os.replace(new, path)
        remove(aside)


def remove(path: Path) -> None:
    """Remove ``path`` whatever it is: a directory with its contents, or a file or link (a
    link's target is never touched); nothing there is not an error."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()


def exchange(a: Path, b: Path) -> bool:
    """Swap paths ``a`` and ``b`` atomically; False where the system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # not Linux, or a C library without it
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # a file system that cannot swap
        return False
    raise OSError(code, os.strerror(code), str(b))


def fsync(path: Path) -> None:
    """Flush file or directory ``path`` to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_files(directory: Path) -> None:
    """Flush ``directory``'s entries and itself to disk (before it is renamed into place)."""
    for child in directory.iterdir():
        fsync(child)
    fsync(directory)


def write_json_atomic(path: Path, value: Any) -> None:
    """Replace ``path`` by ``value`` as JSON: temporary file in the same directory, then rename."""
    write_text_atomic(path, json.dumps(value, indent=2, ensure_ascii=False))


def write_text_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` (UTF-8): temporary file in the same directory, then rename."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data``: a temporary file of its own in the same directory, flushed,
    then renamed over it; a failure (a full disk) removes the temporary file and names
    ``path``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise OSError(error.errno, f"writing {path}: {error.strerror or error}") from error
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync(path.parent)

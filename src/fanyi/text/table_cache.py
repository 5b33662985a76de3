"""Tables fanyi derives once from a library's own data (jieba's dictionary, pypinyin's
readings) or from a model's vocabularies and keeps in its cache folder, to read back in a
fraction of the time they take to make: columns of strings, one value a line, under a header
naming the data they were made from, so a table of other data (a library upgraded) is made
again; or arrays of numbers, as NumPy's ``.npz`` (read without unpickling), beside their key.
"""

from __future__ import annotations

import contextlib
import io
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic import write_bytes_atomic, write_text_atomic

if TYPE_CHECKING:  # NumPy is imported where arrays are read: fanyi --help never needs it
    import numpy as np

FORMAT = "fanyi table 1"  # the header's first field
COLUMNS = "\x00"  # between two columns (no value holds it)
END = "\x00end\n"  # the last bytes of a table written whole

Columns = list[list[str]]
Arrays = dict[str, "np.ndarray"]
KEY = "__key__"  # the entry of an .npz that holds the state of the data its arrays come from


def cache_dir() -> Path:
    """``$FANYI_CACHE`` or ``$XDG_CACHE_HOME/fanyi`` (default ``~/.cache/fanyi``), the folder
    of fanyi's other caches."""
    if os.environ.get("FANYI_CACHE"):
        return Path(os.environ["FANYI_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fanyi"


def cached_columns(name: str, key: str, build: Callable[[], Columns]) -> Columns | None:
    """The columns of table ``name`` that ``build`` makes of data whose state ``key`` names:
    read from the cache, or made and written first where it is missing, stale or cut short;
    None where they can be neither read nor written (or ``build`` raises ValueError)."""
    path = cache_dir() / f"{name}.txt"
    with contextlib.suppress(OSError, ValueError):
        return parse_columns(path.read_text(encoding="utf-8"), name, key)
    try:
        columns = build()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, table_text(columns, name, key))
        return columns
    except (OSError, ValueError):
        return None


def table_text(columns: Columns, name: str, key: str) -> str:
    """``columns`` as the cache holds them; a ValueError where a value cannot be held."""
    if any(COLUMNS in value or "\n" in value for column in columns for value in column):
        raise ValueError(f"table {name}: a value holds a line break or NUL")
    body = COLUMNS.join("\n".join(column) for column in columns)
    return f"{FORMAT}\t{name}\t{key}\n{body}{END}"


def parse_columns(text: str, name: str, key: str) -> Columns:
    """The columns ``text`` holds, or ValueError where it is not table ``name`` of ``key``
    written whole."""
    header, _, body = text.partition("\n")
    if header != f"{FORMAT}\t{name}\t{key}" or not body.endswith(END):
        raise ValueError(f"not table {name} of {key}, or cut short")
    return [column.split("\n") for column in body.removesuffix(END).split(COLUMNS)]


def files_key(*paths: Path) -> str:
    """What changes when any of ``paths`` does: each one's path, size and modification time."""
    stats = ((path.resolve(), path.stat()) for path in paths)
    return " ".join(f"{path}:{stat.st_size}:{stat.st_mtime_ns}" for path, stat in stats)


def cached_arrays(name: str, key: str, build: Callable[[], Arrays]) -> Arrays:
    """The arrays ``build`` makes of data whose state ``key`` names, as :func:`cached_columns`
    keeps columns: read from ``name.npz`` in the cache, or made (and written, where the cache
    folder can be)."""
    import numpy as np

    path = cache_dir() / f"{name}.npz"
    with contextlib.suppress(OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
        return read_arrays(path, key)
    arrays = build()
    if KEY in arrays:
        raise ValueError(f"{KEY} names the key of an .npz table")
    contents: dict[str, Any] = {**arrays, KEY: np.array(key)}
    written = io.BytesIO()
    np.savez(written, **contents)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(path, written.getvalue())
    except OSError:
        pass  # a read-only or full cache: the arrays serve this process all the same
    return arrays


def read_arrays(path: Path, key: str) -> Arrays:
    """The arrays ``path`` holds, or ValueError where they are not those of ``key``."""
    import numpy as np

    with np.load(path, allow_pickle=False) as table:
        if KEY not in table.files or str(table[KEY]) != key:
            raise ValueError(f"{path}: not the table of {key}")
        return {name: table[name] for name in table.files if name != KEY}

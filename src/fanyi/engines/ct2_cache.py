"""A model directory's CTranslate2 export, made once and kept in fanyi's cache.

``--engine auto`` searches with CTranslate2 where it is installed. The export it searches is
written as ``fanyi export --format ctranslate2`` writes one (less the model card) into
``$FANYI_CACHE/ctranslate2/<name>-<quantization>-<hash>``, where the hash is the SHA-256 of
what defines the export: the model's weights and vocabulary files, its model section and
fanyi's version. A directory whose files change gets a new export; one whose export is already
there is read as it is. The export is written under a temporary name and renamed, so a run cut
short leaves no half-written model that a later run would read.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from .._version import __version__
from ..filenames import CT2_MODEL_FILE, MODEL_FILE
from ..interop.ct2_spec import write_ctranslate2
from ..sections import Checkpoint
from .dtype import cache_dir

CHUNK = 1 << 20  # bytes hashed at a time
STALE = ".tmp-"  # an export being written: <final name>.tmp-<pid>


def cached_export(checkpoint: Checkpoint, quantization: str) -> Path:
    """The CTranslate2 export of ``checkpoint``'s model directory in ``quantization`` (int8,
    float32, …): the cached one whose hash matches, or a new one written there first."""
    path = Path(checkpoint.path)
    key = export_key(checkpoint, quantization)
    home = cache_dir() / "ctranslate2" / f"{path.name}-{quantization}-{key[:16]}"
    if (home / CT2_MODEL_FILE).is_file():
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    staged = home.with_name(f"{home.name}{STALE}{os.getpid()}")
    shutil.rmtree(staged, ignore_errors=True)  # this process's own, from a run cut short
    write_ctranslate2(path, staged, quantization)
    try:
        os.replace(staged, home)
    except OSError:  # another process renamed its export there first: the same files
        shutil.rmtree(staged, ignore_errors=True)
    return home


def export_key(checkpoint: Checkpoint, quantization: str) -> str:
    """The SHA-256 of what an export of ``checkpoint`` in ``quantization`` is made from."""
    digest = hashlib.sha256()
    digest.update(f"fanyi {__version__} | {quantization} | {checkpoint.model}".encode())
    for name in sorted(_files(checkpoint)):
        digest.update(f"\n{name.name}\n".encode())
        with open(name, "rb") as stream:
            while block := stream.read(CHUNK):
                digest.update(block)
    return digest.hexdigest()


def _files(checkpoint: Checkpoint) -> list[Path]:
    """The model directory's weights and vocabulary files."""
    path = Path(checkpoint.path)
    vocabularies = [p for p in path.iterdir() if p.suffix in (".model", ".vocab", ".json")]
    return [path / MODEL_FILE, *vocabularies]

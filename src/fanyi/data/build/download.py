"""``fanyi data download NAME``: official corpus files, checksum-verified, into a cache.

Each file is fetched into a temporary folder inside the cache, checked, unpacked, checked again
and only then renamed into place: a failed or corrupted download leaves nothing behind. The
cache is ``--cache-dir``, else ``$FANYI_CACHE``, else ``~/.cache/fanyi``.
"""

from __future__ import annotations

import gzip
import logging
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..manifest import sha256_file

CACHE_ENV = "FANYI_CACHE"
log = logging.getLogger(__name__)


class DownloadError(ValueError):
    """A download that failed or did not match its checksum."""


@dataclass(frozen=True)
class RemoteFile:
    """One file of a source: where it is, how to unpack it and the checksums known for it."""

    url: str
    name: str  # file name in the cache, after unpacking
    sha256: str | None = None  # of the downloaded bytes; None where no fixed value is known
    unpack: Literal["", "gunzip", "zip"] = ""
    member: str = ""  # zip: the member to extract
    unpacked_sha256: str | None = None  # of the unpacked file, where known


@dataclass(frozen=True)
class Source:
    """A named corpus: its files and the terms it comes under."""

    name: str
    description: str
    license: str
    files: tuple[RemoteFile, ...]


_MULTI30K = (
    "https://raw.githubusercontent.com/multi30k/dataset/"
    "a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/"
)
# sha256 of the gunzipped files, from ../shared/data/multi30k/SOURCE.md (upstream, unchanged).
# The .gz bytes themselves were never hashed offline, so they are not pinned; the gunzipped
# content is, which is what matters.
_MULTI30K_SHA256 = {
    "train.de": "2c2b73fd2b548fbcde3a875e0a78d6ee94d498bfdee6bd3eae3945779e9ddf72",
    "train.en": "460a15fbd157e34a7a9957ee388c1ca247fe47af3ef25fb50442af6c274e0fc6",
    "val.de": "660e09eb7e1da2f856ea13ee5ad3cf6d36b3d5b0b733c857e94c5747a3dfc660",
    "val.en": "1f2a23d992769b5b3d209b0a10dd0b77c08cceb1f20dfb97ed0aafa49d107227",
    "test_2016_flickr.de": "4be6b5b3236b79c25475c6bb829800a7ce559e9ba7a1f6c2394fe4d40be46d16",
    "test_2016_flickr.en": "399a4382932c1aadd3ceb9bef1008d388a64c76d4ae4e9d4728c6f4301cac182",
}

REGISTRY: dict[str, Source] = {
    "tatoeba-cmn-eng": Source(
        "tatoeba-cmn-eng",
        "Tatoeba Mandarin-English pairs, packaged by ManyThings.org",
        "CC-BY 2.0 (France); attribution: www.manythings.org/anki and tatoeba.org",
        # No checksum: ManyThings rebuilds cmn-eng.zip as Tatoeba grows, so its bytes change
        # from release to release. The shared copy's sha256 (SOURCE.md) is not upstream's
        # either: 1000 pairs were held back and two lines repaired. Only the zip's own CRC-32
        # checks the extracted cmn.txt.
        (
            RemoteFile(
                "https://www.manythings.org/anki/cmn-eng.zip",
                "cmn.txt",
                unpack="zip",
                member="cmn.txt",
            ),
        ),
    ),
    "multi30k": Source(
        "multi30k",
        "Multi30k task 1 (de-en): train, val, test_2016_flickr",
        "research and education, non-commercial (Flickr terms); cite Elliott et al. 2016",
        tuple(
            RemoteFile(f"{_MULTI30K}{name}.gz", name, unpack="gunzip", unpacked_sha256=digest)
            for name, digest in _MULTI30K_SHA256.items()
        ),
    ),
}


def cache_dir(override: str | Path | None = None) -> Path:
    """``override``, else ``$FANYI_CACHE``, else ``~/.cache/fanyi``."""
    return Path(override or os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "fanyi")


def _verify(path: Path, expected: str | None, what: str) -> None:
    """Raise :class:`DownloadError` unless ``path`` has sha256 ``expected`` (None: not known)."""
    if expected is None:
        return
    actual = sha256_file(path)
    if actual != expected:
        raise DownloadError(
            f"checksum mismatch for {what}: expected sha256 {expected}, "
            f"got {actual}; nothing was saved"
        )


def fetch_url(url: str, path: Path, timeout: float) -> None:
    """Save the body of ``url`` to ``path``."""
    request = urllib.request.Request(url, headers={"User-Agent": "fanyi (urllib)"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, path.open("wb") as f:
            shutil.copyfileobj(response, f)
    except (urllib.error.URLError, OSError) as error:
        raise DownloadError(f"could not download {url}: {error}") from None


def _unpack(raw: Path, remote: RemoteFile, folder: Path) -> Path:
    """The downloaded file unpacked as ``remote`` says, inside ``folder``."""
    if not remote.unpack:
        return raw
    target = folder / f"{remote.name}.unpacked"
    try:
        if remote.unpack == "gunzip":
            with gzip.open(raw, "rb") as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            with (
                zipfile.ZipFile(raw) as archive,
                archive.open(remote.member) as src,
                target.open("wb") as dst,
            ):
                shutil.copyfileobj(src, dst)  # zipfile checks the member's CRC-32
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise DownloadError(f"could not unpack {remote.url}: {error}; nothing was saved") from None
    return target


def fetch(
    remote: RemoteFile, folder: Path, mirror: str | None = None, timeout: float = 60.0
) -> Path:
    """``folder/remote.name``, downloaded and verified unless already there and valid."""
    final = folder / remote.name
    final_sha = remote.unpacked_sha256 if remote.unpack else remote.sha256
    if final.is_file() and (final_sha is None or sha256_file(final) == final_sha):
        return final
    url = f"{mirror.rstrip('/')}/{remote.url.rsplit('/', 1)[1]}" if mirror else remote.url
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".download-") as tmp:
        raw = Path(tmp) / "download"
        fetch_url(url, raw, timeout)
        _verify(raw, remote.sha256, url)
        unpacked = _unpack(raw, remote, Path(tmp))
        _verify(unpacked, remote.unpacked_sha256, f"{url} ({remote.unpack})")
        if remote.sha256 is None and remote.unpacked_sha256 is None:
            log.warning(
                "%s has no known checksum (see fanyi.data.build.download); "
                "sha256 of the file kept: %s",
                url,
                sha256_file(unpacked),
            )
        os.replace(unpacked, final)
    return final


def download(
    name: str,
    cache: str | Path | None = None,
    mirror: str | None = None,
    registry: dict[str, Source] | None = None,
) -> list[Path]:
    """Fetch every file of source ``name`` into ``<cache>/<name>/``; return their paths.

    ``mirror`` replaces each URL's folder (``<mirror>/<file name>``), e.g. a local copy.
    """
    registry = REGISTRY if registry is None else registry
    if name not in registry:
        raise ValueError(f"unknown source {name!r}; known: {', '.join(sorted(registry))}")
    folder = cache_dir(cache) / name
    return [fetch(remote, folder, mirror) for remote in registry[name].files]

"""The files of a corpus kept in a git repository, read from its branches, or of a folder.

Several corpora live in public git repositories, one release per branch (Python's documentation
translations on 3.7 … 3.14, Django's on ``stable/*``). A :class:`Repository` reads a local clone,
bare or not (branches under ``refs/heads`` or ``refs/remotes``), without checking anything out:
``git cat-file`` streams the blobs, each distinct blob once. A plain folder (an unpacked
snapshot) is read as a single "branch". :func:`clone` makes the local copy where a network is.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

WORK_TREE = "(work tree)"  # the one "branch" of a plain folder
BATCH = 256  # blobs read by one git cat-file


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """Output of ``git args`` in ``repo``; a ValueError naming the repository on failure."""
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], input=stdin, capture_output=True, check=True
        )
    except FileNotFoundError:
        raise ValueError("reading a git repository needs git on the PATH") from None
    except subprocess.CalledProcessError as error:
        message = error.stderr.decode(errors="replace").strip().splitlines()
        raise ValueError(f"{repo}: git {args[0]}: {message[-1] if message else error}") from None
    return done.stdout


def is_git(path: Path) -> bool:
    return (path / ".git").exists() or ((path / "HEAD").is_file() and (path / "objects").is_dir())


@dataclass
class Repository:
    """A local git repository (or a plain folder) holding a corpus."""

    path: Path

    def branches(self, pattern: str) -> dict[str, str]:
        """Branch name → commit, for the branches whose name fully matches regex ``pattern``
        (local branches first; a remote branch where no local one has its name)."""
        if not is_git(self.path):
            return {WORK_TREE: ""}
        refs = git(self.path, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")
        remote = git(self.path, "for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes")
        found: dict[str, str] = {}
        for line in (refs + remote).decode().splitlines():
            ref, commit = line.rsplit(" ", 1)
            name = ref.split("/", 3)[-1] if ref.startswith("refs/remotes/") else ref[11:]
            if re.fullmatch(pattern, name) and name not in found:
                found[name] = commit
        return dict(sorted(found.items(), key=lambda item: _natural(item[0])))

    def files(self, commit: str, glob: str) -> list[tuple[str, str]]:
        """(path, blob id) of every file of ``commit`` matching ``glob`` (a plain folder: the
        path twice)."""
        if not commit:
            return [(p, p) for p in sorted(_walk(self.path)) if fnmatch.fnmatch(p, glob)]
        listing = git(self.path, "ls-tree", "-r", "-z", commit).decode().split("\0")
        found = []
        for line in filter(None, listing):
            meta, path = line.split("\t", 1)
            kind, blob = meta.split()[1:3]
            if kind == "blob" and fnmatch.fnmatch(path, glob):
                found.append((path, blob))
        return found

    def read(self, blobs: list[str]) -> Iterator[tuple[str, bytes | None]]:
        """(blob id, contents) of each blob (a plain folder: of each path), in order; None for
        a blob the repository lacks (snapshots may leave out their largest files)."""
        if not is_git(self.path):
            for path in blobs:
                yield path, (self.path / path).read_bytes()
            return
        for start in range(0, len(blobs), BATCH):
            chunk = blobs[start : start + BATCH]
            output = git(self.path, "cat-file", "--batch", stdin="\n".join(chunk).encode() + b"\n")
            at = 0
            for blob in chunk:
                end = output.index(b"\n", at)
                header = output[at:end].split()
                if len(header) < 3:  # "<blob> missing": a snapshot without its largest files
                    yield blob, None
                    at = end + 1
                    continue
                size = int(header[2])
                yield blob, output[end + 1 : end + 1 + size]
                at = end + 2 + size


def local_source(local: str | Path) -> Path:
    """``local``, a folder (a clone or an unpacked snapshot) that must exist."""
    path = Path(local)
    if not path.is_dir():
        what = "does not exist" if not path.exists() else "is not a folder"
        raise ValueError(f"{path} {what}: give a clone or an unpacked snapshot of the source")
    return path


def _walk(root: Path) -> Iterator[str]:
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.relative_to(root).parts:
            yield path.relative_to(root).as_posix()


def _natural(name: str) -> list[object]:
    """Sort key putting 3.9 before 3.10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def clone(url: str, target: Path) -> Path:
    """A bare clone of ``url`` at ``target`` (every branch), or ``target`` updated if it is one
    already; made under a temporary name, so a failed clone leaves nothing behind."""
    if is_git(target):
        git(target, "fetch", "--prune", "origin", "+refs/heads/*:refs/heads/*")
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        git(target.parent, "clone", "--bare", "--quiet", url, str(partial))
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    partial.rename(target)
    return target

"""Real-text corpora kept in public git repositories → Tatoeba-style TSV files, ready to mix.

``fanyi data NAME [LOCAL] -o DIR`` reads a local clone or unpacked snapshot of source NAME (or,
with a network, clones it first) with one of the readers here (documentation catalogues, 3AM, WMT
test sets; :mod:`fanyi.data.build.news_sources` has the rest, :mod:`fanyi.data.build.registry`
names them all) and writes ``DIR``:

- ``train.tsv``, ``dev.tsv``, ``test.tsv`` (and named test sets where a source has them): one
  pair a line, ``English<TAB>Chinese<TAB>provenance``, the column layout of Tatoeba's
  ``cmn.txt``, so a data config mixes them with the same ``columns`` (``extra_train``,
  ``held_out``);
- ``report.json``: pairs kept per file, entries dropped by reason;
- ``PROVENANCE.md``: where every pair comes from (repository, branches and commits) and its
  licence.

Pairs are deduplicated across branches. Sources without a split of their own get a leak-free
one (:mod:`fanyi.data.build.split`): no dev or test sentence, on either side, is in train.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .po import PoReport, po_pairs
from .repository import Repository
from .split import leak_free_split
from .spool import text_hash

Pair3 = tuple[str, str, str]  # English, Chinese, provenance
HELD_OUT = 1000  # pairs in dev and in test, for sources without a split (at most 5% each)


@dataclass
class Collected:
    """What a reader found: pairs by output file, counts for the report, branches read."""

    files: dict[str, list[Pair3]] = field(default_factory=dict)
    report: dict[str, object] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RealSource:
    """A corpus in a git repository: how to read it and the terms it comes under."""

    name: str
    description: str
    url: str
    license: str
    read: Callable[[Repository, str | None], Collected]

    @property
    def clone_url(self) -> str:
        return f"{self.url}.git"


def one_line(text: str) -> str:
    return " ".join(text.split())


def read_catalogues(repo: Repository, branches: str, glob: str, label: str) -> Collected:
    """Pairs of every .po file matching ``glob`` on every branch matching ``branches``,
    each distinct file read once, each pair kept once (its first provenance)."""
    found = repo.branches(branches)
    if not found:
        raise ValueError(f"{repo.path}: no branch matches {branches!r}")
    seen: set[tuple[str, str]] = set()
    pairs: list[Pair3] = []
    report, read_blobs, missing = PoReport(), set[str](), list[str]()
    for branch, commit in found.items():
        files = [(path, blob) for path, blob in repo.files(commit, glob) if blob not in read_blobs]
        paths: dict[str, str] = {}
        for path, blob in files:
            paths.setdefault(blob, path)  # a file copied within a branch is read once
        read_blobs.update(paths)
        for blob, data in repo.read(list(paths)):
            if data is None:
                missing.append(f"{branch}:{paths[blob]}")
                continue
            text = data.decode("utf-8", errors="replace")
            for english, chinese in po_pairs(text, report):
                key = (one_line(english), one_line(chinese))
                if key not in seen:
                    seen.add(key)
                    pairs.append((*key, f"{label} {branch}:{paths[blob]}"))
    held = min(HELD_OUT, len(pairs) // 20)
    collected = split_off(pairs, dev=held, test=held)
    collected.report = {
        "catalogues": report.to_dict(),
        "unique_pairs": len(pairs),
        "missing_files": missing,  # absent from the clone or snapshot: not read
    }
    collected.branches = found
    return collected


def split_off(pairs: list[Pair3], dev: int, test: int, seed: int = 1234) -> Collected:
    """``pairs`` dealt into train, dev and test without leakage (:func:`leak_free_split`), by
    content: a later snapshot with a few more entries keeps the held-out pairs of the last one
    (a positional shuffle dealt them anew, so a model continued on a rebuilt source trained on
    most of the test set its first stage had held out)."""
    keys = [np.array([text_hash(p[i]) for p in pairs], dtype=np.uint64) for i in (0, 1)]
    chosen = leak_free_split(keys[0], keys[1], dev, test, seed, by_content=True)
    return Collected({name: [pairs[i] for i in chosen[name]] for name in chosen})


def aligned_files(
    repo: Repository, commit: str, pattern: dict[str, str], label: str
) -> list[Pair3]:
    """Pairs of a pair of line-aligned files (``pattern``: language → path)."""
    blobs = {lang: dict(repo.files(commit, path)) for lang, path in pattern.items()}
    for lang, path in pattern.items():
        if path not in blobs[lang]:
            raise ValueError(f"{repo.path}: {path} not found")
    texts = {lang: blob_lines(repo, blobs[lang][path], path) for lang, path in pattern.items()}
    if len(texts["en"]) != len(texts["zh"]):
        raise ValueError(
            f"{repo.path}: {pattern['en']} has {len(texts['en'])} lines, "
            f"{pattern['zh']} {len(texts['zh'])}"
        )
    return [
        (one_line(en), one_line(zh), f"{label}:{pattern['en']}:{n}")
        for n, (en, zh) in enumerate(zip(texts["en"], texts["zh"], strict=True), 1)
        if en.strip() and zh.strip()
    ]


def blob_lines(repo: Repository, blob: str, path: str) -> list[str]:
    data = next(repo.read([blob]))[1]
    if data is None:
        raise ValueError(f"{repo.path}: {path} is missing from the repository")
    return data.decode("utf-8").splitlines()


def read_python_docs(repo: Repository, branches: str | None) -> Collected:
    return read_catalogues(repo, branches or r"3\.\d+", "*.po", "python-docs-zh-cn")


def read_django_docs(repo: Repository, branches: str | None) -> Collected:
    glob = "translations/zh_Hans/LC_MESSAGES/*.po"
    return read_catalogues(repo, branches or r"stable/.+", glob, "django-docs-translations")


def default_branch(repo: Repository, branches: str | None) -> tuple[str, str]:
    found = repo.branches(branches or r".+")
    if not found:
        raise ValueError(f"{repo.path}: no branch matches {branches!r}")
    return next(iter(found.items()))


def read_3am(repo: Repository, branches: str | None) -> Collected:
    """3AM's own split (data/{train,val,test}.{en,zh})."""
    branch, commit = default_branch(repo, branches or r"main|master")
    splits = {"train": "train", "dev": "val", "test": "test"}
    files = {
        name: aligned_files(
            repo, commit, {lang: f"data/{s}.{lang}" for lang in ("en", "zh")}, "3AM"
        )
        for name, s in splits.items()
    }
    return Collected(files, {n: len(p) for n, p in files.items()}, {branch: commit})


# WMT news test sets as OPUS-MT-testsets keeps them: newstest2017/2018 for dev and fine-tuning,
# 2019 onwards only as test (each direction its own set: source-original text).
WMT_ROLES = {"train": ("2018",), "dev": ("2017",)}
WMT_TESTS = ("2019", "2020", "2021")


def read_wmt_news(repo: Repository, branches: str | None) -> Collected:
    branch, commit = default_branch(repo, branches or r"master|main")
    present = {path for path, _ in repo.files(commit, "testsets/*/newstest20*")}

    def one(direction: str, year: str) -> list[Pair3]:
        prefix = f"testsets/{direction}/newstest{year}"
        if f"{prefix}.{direction[:3]}" not in present:
            return []
        pattern = {"en": f"{prefix}.eng", "zh": f"{prefix}.zho"}
        return aligned_files(repo, commit, pattern, f"WMT newstest{year} {direction}")

    files: dict[str, list[Pair3]] = {}
    for role, years in WMT_ROLES.items():
        both = [p for y in years for d in ("zho-eng", "eng-zho") for p in one(d, y)]
        files[role] = list({(en, zh): (en, zh, origin) for en, zh, origin in both}.values())
    for year in WMT_TESTS:
        for direction, short in (("zho-eng", "zh-en"), ("eng-zho", "en-zh")):
            if pairs := one(direction, year):
                files[f"newstest{year}.{short}"] = pairs
    return Collected(files, {n: len(p) for n, p in files.items()}, {branch: commit})


# Test-only sets of the same snapshot, never trained on. FLORES-200 devtest and
# TICO-19 test are English-original, one set serving both directions (testsets/zho-eng links to
# TICO-19's eng-zho files); WMT22's general test has a source-original set per direction
# (reference A).
FLORES = "datasets/facebook/flores/flores200_dataset/devtest/{}.devtest"
WMT22 = "datasets/statmt/wmt22-news-systems/txt/{}/generaltest2022.{}"
TICO19 = "testsets/eng-zho/tico19-test.{}"
WIDER_TESTS = {  # file name: (label, English file, Chinese file)
    "flores200-devtest": (
        "FLORES-200 devtest",
        FLORES.format("eng_Latn"),
        FLORES.format("zho_Hans"),
    ),
    "tico19-test": ("TICO-19 test", TICO19.format("eng"), TICO19.format("zho")),
    "generaltest2022.zh-en": (
        "WMT22 general zh-en",
        WMT22.format("references", "zh-en.ref.A.en"),
        WMT22.format("sources", "zh-en.src.zh"),
    ),
    "generaltest2022.en-zh": (
        "WMT22 general en-zh",
        WMT22.format("sources", "en-zh.src.en"),
        WMT22.format("references", "en-zh.ref.A.zh"),
    ),
}


def read_test_sets(
    repo: Repository, branches: str | None, tests: dict[str, tuple[str, str, str]]
) -> Collected:
    """The ``tests`` (file name: label, English file, Chinese file) the snapshot holds, each its
    own file; no train or dev. Sets the snapshot lacks are reported, none at all is an error."""
    branch, commit = default_branch(repo, branches or r"master|main")
    present = {path for path, _ in repo.files(commit, "*")}
    files, missing = {}, []
    for name, (label, english, chinese) in tests.items():
        if english in present and chinese in present:
            files[name] = aligned_files(repo, commit, {"en": english, "zh": chinese}, label)
        else:
            missing.append(name)
    if not files:
        raise ValueError(f"{repo.path}: none of {', '.join(tests)} found")
    report = {"test_only": True, "missing_sets": missing}
    return Collected(files, report, {branch: commit})


def read_wider_tests(repo: Repository, branches: str | None) -> Collected:
    """The :data:`WIDER_TESTS` the snapshot holds."""
    return read_test_sets(repo, branches, WIDER_TESTS)


def write_tsv(path: Path, pairs: list[Pair3]) -> None:
    """``pairs`` as TSV lines at ``path``, through a temporary file (never half a file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as f:
        for english, chinese, origin in pairs:
            f.write(f"{english}\t{chinese}\t{origin}\n")
    os.replace(tmp, path)

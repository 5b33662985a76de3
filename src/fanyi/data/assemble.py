"""The pairs of each split, streamed: clean, split without leakage, grow train.

Every input is cleaned into a spool (:mod:`fanyi.data.spool`), and the spool's lines are dealt
to ``{split}.pairs`` files in a work folder, in input order, by the hashes of their pairs and
sentences: duplicates dropped, dev and test split off (or given) without leakage, the extra
train corpora added without a dev or test sentence, then the concatenated pairs. Memory holds
hashes, never the corpus; the result is what the in-memory lists of earlier versions held.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..lang import Normalizer
from .augment import concatenations
from .config import DataConfig, resolve_path
from .corpus import Cleaner, Record, Report, read_aligned, read_tsv
from .split import SPLITS, leak_free_split
from .spool import (
    PAIR,
    SOURCE,
    TARGET,
    PairFile,
    Spool,
    deduplicated,
    pair_line,
    read_pair,
    sharing_a_side,
    spool,
)

JOINED = "train.joined"  # the concatenated pairs, after train's own


def input_files(config: DataConfig) -> dict[str, Path]:
    """Every input file by role: ``train`` (tsv) or ``train.de`` and ``train.en`` (aligned);
    the extra train corpora as ``extra1``, ``extra2``, …"""
    prefixes = {"train": config.train, "dev": config.dev, "test": config.test}
    prefixes |= {f"extra{i}": path for i, path in enumerate(config.extra_train, 1)}
    files = {}
    for split, prefix in prefixes.items():
        if prefix is None:
            continue
        if config.format == "tsv":
            files[split] = resolve_path(prefix)
        else:
            for lang in config.langs:
                files[f"{split}.{lang}"] = resolve_path(f"{prefix}.{lang}")
    return files


def _records(config: DataConfig, split: str) -> Iterator[Record]:
    """The records of one input split, read in the base direction."""
    files = input_files(config)
    if config.format == "tsv":
        return read_tsv(
            files[split], config.columns, config.langs, config.num_columns, config.limit
        )
    src, tgt = (files[f"{split}.{lang}"] for lang in config.langs)
    return read_aligned(src, tgt, config.limit)


def cleaner(config: DataConfig) -> Cleaner:
    src, tgt = (Normalizer(lang, config.nfkc, config.t2s) for lang in config.langs)
    return Cleaner(src, tgt, config.min_len, config.max_len, config.max_ratio, config.dedup)


@dataclass
class Assembled:
    """The pairs of each split as files of spool lines, in order, and what became of each input."""

    files: dict[str, list[Path]]
    pairs: dict[str, int]
    reports: dict[str, Report]
    concatenated: int = 0


@dataclass
class _Work:
    """One ``assemble``: where its files go and how it cleans."""

    config: DataConfig
    folder: Path
    strict: bool
    workers: int

    def spool(self, role: str) -> Spool:
        """Input ``role`` cleaned into a spool."""
        path = self.folder / f"{role}.spool"
        return spool(
            _records(self.config, role), cleaner(self.config), path, self.strict, self.workers
        )

    def deduplicated(self, spooled: Spool) -> np.ndarray:
        return deduplicated(spooled, self.config.dedup)

    def files(self) -> dict[str, list[Path]]:
        return {name: [self.folder / f"{name}.pairs"] for name in SPLITS}

    def write(self, name: str, lines: Iterable[str], mode: str = "w") -> int:
        """Write spool lines to ``{name}.pairs``; how many."""
        count = 0
        with (self.folder / f"{name}.pairs").open(mode, encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(line)
                count += 1
        return count


def _split_off(work: _Work) -> tuple[Assembled, np.ndarray]:
    """Dev and test split off the corpus without leakage; the hashes of the pairs kept."""
    corpus = work.spool("train")
    kept = np.flatnonzero(work.deduplicated(corpus))
    config, hashes = work.config, corpus.hashes[kept]
    chosen = leak_free_split(
        hashes[:, SOURCE], hashes[:, TARGET], config.dev_size, config.test_size, config.seed
    )
    route = np.full(len(corpus), -1, dtype=np.int8)  # the split of each spool line, or none
    for i, name in enumerate(SPLITS):
        route[kept[chosen[name]]] = i
    pairs = {name: work.write(name, corpus.lines(route == i)) for i, name in enumerate(SPLITS)}
    assembled = Assembled(work.files(), pairs, {"corpus": corpus.report})
    return assembled, np.concatenate([hashes[chosen[name]] for name in SPLITS])


def _given(work: _Work) -> tuple[Assembled, np.ndarray]:
    """Dev and test as given, and train without the pairs sharing a sentence with them."""
    spools = {name: work.spool(name) for name in SPLITS}
    keep = {name: work.deduplicated(spooled) for name, spooled in spools.items()}
    held_out = np.concatenate([spools[name].hashes[keep[name]] for name in SPLITS[1:]])
    overlap = sharing_a_side(spools["train"].hashes, held_out) & keep["train"]
    spools["train"].report.drop("overlap", int(overlap.sum()))
    keep["train"] &= ~overlap
    pairs = {name: work.write(name, spooled.lines(keep[name])) for name, spooled in spools.items()}
    reports = {name: spooled.report for name, spooled in spools.items()}
    kept = np.concatenate([spools[name].hashes[keep[name]] for name in SPLITS])
    return Assembled(work.files(), pairs, reports), kept


def _add_extra(work: _Work, assembled: Assembled, kept: np.ndarray) -> None:
    """Append the extra train corpora: cleaned, without dev/test sentences or pairs train has;
    each gets its own report (``extra1``, …)."""
    train = assembled.pairs["train"]
    held_out, seen = kept[train:], kept[:train, PAIR]  # kept: train's hashes, then dev's, test's
    for i in range(1, len(work.config.extra_train) + 1):
        name = f"extra{i}"
        extra = work.spool(name)
        keep = work.deduplicated(extra)
        overlap = sharing_a_side(extra.hashes, held_out) & keep
        extra.report.drop("overlap", int(overlap.sum()))
        known = np.isin(extra.hashes[:, PAIR], seen) & keep & ~overlap
        extra.report.drop("duplicate", int(known.sum()))
        keep &= ~overlap & ~known
        seen = np.concatenate([seen, extra.hashes[keep, PAIR]])
        assembled.pairs["train"] += work.write("train", extra.lines(keep), mode="a")
        assembled.reports[name] = extra.report


def _concatenate(work: _Work, assembled: Assembled) -> None:
    """Add ``concat_augment`` × |train| pairs joined from random train pairs (those the
    cleaner would keep)."""
    config, check = work.config, cleaner(work.config)
    if not config.concat_augment:
        return
    train = PairFile(assembled.files["train"][0])
    joined = concatenations(
        train, config.concat_augment, config.concat_max, config.seed, config.langs
    )
    count = work.write(JOINED, (pair_line(pair) for pair in joined if not check.reject(pair)))
    assembled.files["train"].append(work.folder / f"{JOINED}.pairs")
    assembled.pairs["train"] += count
    assembled.concatenated = count


def assemble(config: DataConfig, folder: Path, strict: bool = False, workers: int = 1) -> Assembled:
    """The pairs of every split of ``config``, as files in ``folder``.

    ``strict`` raises :class:`~fanyi.data.corpus.MalformedLineError` on the first malformed
    line instead of counting it; ``workers`` processes clean the inputs.
    """
    work = _Work(config, folder, strict, workers)
    assembled, kept = _split_off(work) if config.dev is None else _given(work)
    _add_extra(work, assembled, kept)
    _concatenate(work, assembled)
    return assembled


def pairs_of(files: list[Path]) -> Iterator[tuple[str, str]]:
    """The pairs of a split's files, in order."""
    for path in files:
        with path.open(encoding="utf-8", newline="\n") as f:
            yield from map(read_pair, f)

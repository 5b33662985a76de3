"""The pairs of each split, streamed: clean, split without leakage, grow train.

Every input is cleaned into a spool (:mod:`fanyi.data.build.spool`), and the spool's lines are
dealt to ``{split}.pairs`` files in a work folder, in input order, by the hashes of their pairs and
sentences: duplicates dropped, dev and test split off (or given) without leakage, the extra
train corpora added without a dev or test sentence, then the concatenated pairs. Memory holds
hashes, never the corpus; the result is what the in-memory lists of earlier versions held.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...text.lang import Normalizer
from ..config import DataConfig, resolve_path
from .augment import concatenations
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
    the extra train corpora as ``extra1``, ``extra2``, …, the other held-out sets as ``held1``, …"""
    prefixes = {"train": config.train, "dev": config.dev, "test": config.test}
    prefixes |= {f"extra{i}": path for i, path in enumerate(config.extra_train, 1)}
    prefixes |= {f"held{i}": path for i, path in enumerate(config.held_out, 1)}
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
    one_way: dict[Path, str] = dataclasses.field(default_factory=dict)  # file → only target

    def directions(self, split: str, target: str) -> list[Path]:
        """The files of ``split`` whose pairs are translated into ``target``."""
        return [f for f in self.files[split] if self.one_way.get(f, target) == target]


@dataclass
class _Work:
    """One ``assemble``: where its files go and how it cleans."""

    config: DataConfig
    folder: Path
    strict: bool
    workers: int

    def spool(self, role: str, lenient: bool = False) -> Spool:
        """Input ``role`` cleaned into a spool (``lenient``: normalised, but no pair dropped
        for its length or ratio, so that every sentence of a held-out set is known)."""
        path = self.folder / f"{role}.spool"
        clean = cleaner(self.config)
        if lenient:
            clean = dataclasses.replace(clean, min_len=1, max_len=1 << 30, max_ratio=float("inf"))
        return spool(_records(self.config, role), clean, path, self.strict, self.workers)

    def deduplicated(self, spooled: Spool) -> np.ndarray:
        return deduplicated(spooled, self.config.dedup)

    def files(self) -> dict[str, list[Path]]:
        return {name: [self.folder / f"{name}.pairs"] for name in SPLITS}

    def held_out(self) -> np.ndarray:
        """The hashes of the pairs of every other held-out set (``held_out``), cleaned alike."""
        hashes = [np.zeros((0, 3), np.uint64)]
        for i in range(1, len(self.config.held_out) + 1):
            spooled = self.spool(f"held{i}", lenient=True)
            hashes.append(spooled.hashes[self.deduplicated(spooled)])
        return np.concatenate(hashes)

    def write_weighted(
        self, corpus: str, spooled: Spool, keep: np.ndarray, mode: str, name: str = "train"
    ) -> int:
        """Write the kept pairs of train corpus ``corpus`` to ``{name}.pairs`` as often as its
        weight says: whole passes over them, then a seeded fraction (each with that probability)."""
        weight = self.config.weights.get(corpus, 1.0)
        passes = [keep] * int(weight)
        if weight % 1:
            rng = np.random.default_rng([self.config.seed, len(spooled)])
            passes.append(keep & (rng.random(len(keep)) < weight % 1))
        modes = [mode] + ["a"] * (len(passes) - 1)
        return sum(
            self.write(name, spooled.lines(p), m) for p, m in zip(passes, modes, strict=True)
        )

    def write(self, name: str, lines: Iterable[str], mode: str = "w") -> int:
        """Write spool lines to ``{name}.pairs``; how many."""
        count = 0
        with (self.folder / f"{name}.pairs").open(mode, encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(line)
                count += 1
        return count


def _split_off(work: _Work) -> tuple[Assembled, np.ndarray, np.ndarray]:
    """Dev and test split off the corpus without leakage, and train without the other held-out
    sets' sentences; the hashes of the train pairs kept and of every held-out pair."""
    corpus = work.spool("train")
    kept = np.flatnonzero(work.deduplicated(corpus))
    config, hashes = work.config, corpus.hashes[kept]
    chosen = leak_free_split(
        hashes[:, SOURCE], hashes[:, TARGET], config.dev_size, config.test_size, config.seed
    )
    others = work.held_out()
    overlap = sharing_a_side(hashes[chosen["train"]], others)
    if overlap.any():  # only where other held-out sets are given
        corpus.report.drop("overlap", int(overlap.sum()))
    chosen["train"] = chosen["train"][~overlap]
    route = np.full(len(corpus), -1, dtype=np.int8)  # the split of each spool line, or none
    for i, name in enumerate(SPLITS):
        route[kept[chosen[name]]] = i
    pairs = {name: work.write(name, corpus.lines(route == i)) for i, name in enumerate(SPLITS) if i}
    pairs["train"] = work.write_weighted("train", corpus, route == 0, "w")
    assembled = Assembled(work.files(), pairs, {"corpus": corpus.report})
    held_out = np.concatenate([hashes[chosen["dev"]], hashes[chosen["test"]], others])
    return assembled, hashes[chosen["train"]], held_out


def _given(work: _Work) -> tuple[Assembled, np.ndarray, np.ndarray]:
    """Dev and test as given, and train without the pairs sharing a sentence with them or with
    the other held-out sets; the hashes of the train pairs kept and of every held-out pair."""
    spools = {name: work.spool(name) for name in SPLITS}
    keep = {name: work.deduplicated(spooled) for name, spooled in spools.items()}
    others = work.held_out()
    held_out = np.concatenate([*(spools[n].hashes[keep[n]] for n in SPLITS[1:]), others])
    overlap = sharing_a_side(spools["train"].hashes, held_out) & keep["train"]
    spools["train"].report.drop("overlap", int(overlap.sum()))
    keep["train"] &= ~overlap
    pairs = {name: work.write(name, spools[name].lines(keep[name])) for name in SPLITS[1:]}
    pairs["train"] = work.write_weighted("train", spools["train"], keep["train"], "w")
    reports = {name: spooled.report for name, spooled in spools.items()}
    return Assembled(work.files(), pairs, reports), spools["train"].hashes[keep["train"]], held_out


def _add_extra(work: _Work, assembled: Assembled, train: np.ndarray, held_out: np.ndarray) -> None:
    """Append the extra train corpora: cleaned, without held-out sentences or pairs train has,
    each as often as its weight says; each gets its own report (``extra1``, …)."""
    seen = train[:, PAIR]
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
        corpus = work.config.extra_train[i - 1]
        assembled.pairs["train"] += _write_extra(work, assembled, corpus, extra, keep)
        assembled.reports[name] = extra.report


def _write_extra(
    work: _Work, assembled: Assembled, corpus: str, extra: Spool, keep: np.ndarray
) -> int:
    """Append an extra corpus to train, or (``one_way``) to a file of its target language."""
    target = work.config.one_way.get(corpus)
    if target is None:
        return work.write_weighted(corpus, extra, keep, "a")
    name = f"train.to-{target}"
    path = work.folder / f"{name}.pairs"
    if path not in assembled.files["train"]:
        assembled.files["train"].append(path)
        assembled.one_way[path] = target
    return work.write_weighted(corpus, extra, keep, "a", name)


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

    ``strict`` raises :class:`~fanyi.data.build.corpus.MalformedLineError` on the first malformed
    line instead of counting it; ``workers`` processes clean the inputs.
    """
    work = _Work(config, folder, strict, workers)
    assembled, train, held_out = _split_off(work) if config.dev is None else _given(work)
    _add_extra(work, assembled, train, held_out)
    _concatenate(work, assembled)
    return assembled


def pairs_of(files: list[Path]) -> Iterator[tuple[str, str]]:
    """The pairs of a split's files, in order."""
    for path in files:
        with path.open(encoding="utf-8", newline="\n") as f:
            yield from map(read_pair, f)

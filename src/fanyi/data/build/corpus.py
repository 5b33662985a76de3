"""Reading parallel corpora and cleaning them, with every dropped line counted by reason.

Readers turn each input line into a :class:`Record` (its ``file:line`` origin and either the two
sides or why it is malformed); :func:`clean_record` normalises and filters one record and fills
a :class:`Report` whose drop counts plus ``kept`` always add up to ``input_lines``. Duplicates
are found later, among hashes (:mod:`fanyi.data.build.spool`).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice, zip_longest
from pathlib import Path
from typing import TextIO

from ...text.lang import Normalizer, length_units

Pair = tuple[str, str]  # (source text, target text)
MAX_EXAMPLES = 20  # malformed lines quoted in the report (all of them are counted)


class MalformedLineError(ValueError):
    """A malformed input line under ``strict`` cleaning."""


@dataclass(frozen=True)
class Record:
    """One input line: where it came from and its (source, target) sides, or its problem."""

    origin: str  # "path:line"
    sides: Pair | None
    problem: str = ""  # reason key when sides is None: malformed_columns or invalid_utf8
    detail: str = ""


@dataclass
class Report:
    """Counts of one input's cleaning: ``kept + sum(dropped) == input_lines``."""

    input_lines: int = 0
    kept: int = 0
    dropped: Counter = field(default_factory=Counter)
    changed: Counter = field(default_factory=Counter)  # "<step>.<lang>": sides it changed
    malformed: list[str] = field(default_factory=list)  # the first MAX_EXAMPLES, "file:line: why"

    def drop(self, reason: str, count: int = 1) -> None:
        self.dropped[reason] += count
        self.kept -= count

    def merge(self, other: Report) -> None:
        """Add the counts of ``other`` (the next lines of the same input)."""
        self.input_lines += other.input_lines
        self.kept += other.kept
        self.dropped.update(other.dropped)
        self.changed.update(other.changed)
        self.malformed = (self.malformed + other.malformed)[:MAX_EXAMPLES]

    def to_dict(self) -> dict:
        return {
            "input_lines": self.input_lines,
            "kept": self.kept,
            "dropped": dict(sorted(self.dropped.items())),
            "changed": dict(sorted(self.changed.items())),
            "malformed": self.malformed,
        }


def _numbered_lines(path: Path, limit: int | None) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, bytes without the line break) of a file read as bytes."""
    with path.open("rb") as f:
        for number, raw in enumerate(islice(f, limit), start=1):
            yield number, raw.rstrip(b"\n")


def _decode(raw: bytes) -> tuple[str | None, str]:
    """(text, "") or (None, why it is not UTF-8)."""
    try:
        return raw.decode("utf-8"), ""
    except UnicodeDecodeError as error:
        return None, f"invalid UTF-8 at byte {error.start}"


def read_tsv(
    path: Path,
    columns: dict[str, int],
    langs: Pair,
    num_columns: int | None = None,
    limit: int | None = None,
) -> Iterator[Record]:
    """Records from TAB-separated lines, taking the columns ``columns[lang]`` of ``langs``."""
    needed = max(columns[lang] for lang in langs) + 1
    expected = str(num_columns) if num_columns is not None else f"at least {needed}"
    for number, raw in _numbered_lines(path, limit):
        origin = f"{path}:{number}"
        text, why = _decode(raw)
        if text is None:
            yield Record(origin, None, "invalid_utf8", why)
            continue
        fields = text.split("\t")
        if len(fields) < needed or (num_columns is not None and len(fields) != num_columns):
            why = f"{len(fields)} columns, expected {expected}"
            yield Record(origin, None, "malformed_columns", why)
            continue
        yield Record(origin, (fields[columns[langs[0]]], fields[columns[langs[1]]]))


def read_aligned(src_path: Path, tgt_path: Path, limit: int | None = None) -> Iterator[Record]:
    """Records from two files whose line i are translations of each other.

    Files of different lengths are refused outright: every pair after the first missing line
    could be misaligned, so dropping just the tail would hide the damage.
    """
    lines = zip_longest(_numbered_lines(src_path, limit), _numbered_lines(tgt_path, limit))
    for src, tgt in lines:
        if src is None or tgt is None:
            short, long_ = (src_path, tgt_path) if src is None else (tgt_path, src_path)
            raise ValueError(f"{short} has fewer lines than {long_}: the files are not aligned")
        (src_text, src_why), (tgt_text, tgt_why) = _decode(src[1]), _decode(tgt[1])
        if src_text is None:
            yield Record(f"{src_path}:{src[0]}", None, "invalid_utf8", src_why)
        elif tgt_text is None:
            yield Record(f"{tgt_path}:{tgt[0]}", None, "invalid_utf8", tgt_why)
        else:
            yield Record(f"{src_path}:{src[0]}", (src_text, tgt_text))


def read_lines(stream: TextIO | None = None) -> Iterator[str]:
    """Lines of a text stream (default: standard input) without their line breaks."""
    for line in stream if stream is not None else sys.stdin:
        yield line.rstrip("\r\n")


@dataclass(frozen=True)
class Cleaner:
    """The normalisation and filters applied to every pair of one direction."""

    src: Normalizer
    tgt: Normalizer
    min_len: int = 1
    max_len: int = 200
    max_ratio: float = 9.0
    dedup: bool = True

    def normalise(self, sides: Pair, report: Report) -> Pair:
        """Both sides normalised, counting which steps changed each side."""
        out = []
        for normalizer, text in zip((self.src, self.tgt), sides, strict=True):
            text, changed = normalizer.apply(text)
            report.changed.update(f"{step}.{normalizer.lang}" for step in changed)
            out.append(text)
        return out[0], out[1]

    def reject(self, pair: Pair) -> str:
        """Why a normalised pair is dropped ("" to keep it), checked in the report's order."""
        lengths = [length_units(side) for side in pair]
        if min(lengths) == 0:
            return "empty"
        if min(lengths) < self.min_len:
            return "too_short"
        if max(lengths) > self.max_len:
            return "too_long"
        if max(lengths) / min(lengths) > self.max_ratio:
            return "length_ratio"
        return ""


def clean_record(
    record: Record, cleaner: Cleaner, report: Report, strict: bool = False
) -> Pair | None:
    """The normalised pair of ``record``, or None when it is malformed or filtered (counted in
    ``report``). Duplicates are left to the caller, which sees every pair."""
    report.input_lines += 1
    report.kept += 1
    if record.sides is None:
        message = f"{record.origin}: {record.detail}"
        if strict:
            raise MalformedLineError(message)
        if len(report.malformed) < MAX_EXAMPLES:
            report.malformed.append(message)
        report.drop(record.problem)
        return None
    pair = cleaner.normalise(record.sides, report)
    reason = cleaner.reject(pair)
    if reason:
        report.drop(reason)
        return None
    return pair

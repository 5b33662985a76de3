"""What ``max_repeat_run`` (``repetition.py``) reads of a model's vocabularies, made once per
vocabulary: each piece's runs of one character (``text/runs.py`` says what runs), and the pieces
grouped by the character they start with, so that a step forbids a run's next pieces by
gathering them rather than by comparing every piece of the vocabulary with every row. The tables
of a pair of vocabularies are kept in fanyi's cache folder (``$FANYI_CACHE``, NumPy arrays):
made, they took 0.17 CPU s of the first line's search; read back, a few milliseconds."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from itertools import groupby
from pathlib import Path

import numpy as np
import torch
from torch import Tensor

from ..data.vocab import BOS, EOS, PAD, UNK, Vocab
from ..text import runs as runs_module
from ..text.runs import NUMERIC, WORD_START, runs_char
from ..text.table_cache import Arrays, cached_arrays

NONE = -1  # the character of a piece end that starts or continues no run, an id of no piece
Rows = dict[str, tuple[int, ...]]  # a piece's text → its row of the tables
BYTE = re.compile("<0x[0-9A-F]{2}>")  # SentencePiece's byte fallback: one byte of UTF-8


@dataclass(frozen=True)
class PieceRuns:
    """Each piece's runs of one character, as code points (:data:`NONE`: a space, a digit, a
    special piece): the run it starts with, the run it ends with, whether it is one run
    whole, its longest run, and whether it is part of a number (V each)."""

    lead_char: Tensor
    lead_len: Tensor
    trail_char: Tensor
    trail_len: Tensor
    whole: Tensor  # bool: the piece is one character, however many times
    inner_char: Tensor
    inner_len: Tensor
    numeric: Tensor  # bool: only digits and their separators (or nothing)
    digit: Tensor  # bool: holds a digit

    @classmethod
    def of(cls, pieces: Sequence[str], size: int, memo: Rows | None = None) -> PieceRuns:
        """The tables of ``pieces`` (an empty string: a special piece), ``size`` rows (``memo``:
        the rows of texts already read)."""
        memo = {} if memo is None else memo
        rows = [memo[p] if p in memo else memo.setdefault(p, _piece_runs(p)) for p in pieces]
        rows += [_piece_runs("")] * (size - len(rows))
        columns = [torch.tensor(column) for column in zip(*rows, strict=True)]
        for bools in (4, 7, 8):
            columns[bools] = columns[bools].bool()
        return cls(*columns)

    def to(self, device: torch.device) -> PieceRuns:
        return PieceRuns(*(getattr(self, f.name).to(device) for f in fields(self)))


def _piece_runs(piece: str) -> tuple[int, ...]:
    """``PieceRuns``' row of one piece: its runs as (char, length) groups."""
    groups = [(ord(c) if runs_char(c) else NONE, len(list(g))) for c, g in groupby(piece)]
    if not groups:
        return NONE, 0, NONE, 0, 0, NONE, 0, 1, 0
    inner = max(groups, key=lambda g: g[1] if g[0] != NONE else 0)
    whole = len(groups) == 1 and groups[0][0] != NONE
    numeric = NUMERIC.fullmatch(piece.replace(WORD_START, " ")) is not None
    inner = inner if inner[0] != NONE else (NONE, 0)
    digit = any(c.isdigit() for c in piece)
    return (*groups[0], *groups[-1], int(whole), *inner, int(numeric), int(digit))


@dataclass(frozen=True)
class LeadIndex:
    """The pieces that start with a character, by character: ``flat`` holds them grouped by
    character (K characters), longest leading run first; a group starts at ``start`` and its
    first ``at_least[k, j]`` pieces start with j or more of its character. ``key`` is each
    piece's last character's group (:data:`NONE`: no piece starts with it); ``width`` the
    largest group."""

    flat: Tensor
    start: Tensor  # K
    at_least: Tensor  # K x (J + 2), J the longest leading run
    key: Tensor  # V
    width: int

    @classmethod
    def of(cls, runs: PieceRuns) -> LeadIndex:
        """The index of ``runs``' leading runs (where no piece starts with a character, one
        empty group that no piece's last character names)."""
        ids = (runs.lead_char != NONE).nonzero()[:, 0]
        if not ids.numel():
            none = torch.full_like(runs.trail_char, NONE)
            return cls(ids.new_zeros(1), ids.new_zeros(1), ids.new_zeros(1, 2), none, 1)
        chars, group = torch.unique(runs.lead_char[ids], return_inverse=True)
        lengths = runs.lead_len[ids]
        order = sorted(range(ids.numel()), key=lambda i: (int(group[i]), -int(lengths[i])))
        k = chars.numel()
        counts = torch.bincount(group, minlength=k)
        at_least = torch.stack(
            [
                torch.bincount(group[lengths >= j], minlength=k)
                for j in range(int(lengths.max()) + 2)
            ],
            dim=1,
        )
        place = torch.searchsorted(chars, runs.trail_char).clamp(max=k - 1)
        key = torch.where(chars[place] == runs.trail_char, place, NONE)
        start = torch.cumsum(counts, 0) - counts
        return cls(ids[order], start, at_least, key, int(counts.max()))

    def to(self, device: torch.device) -> LeadIndex:
        return LeadIndex(
            self.flat.to(device),
            self.start.to(device),
            self.at_least.to(device),
            self.key.to(device),
            self.width,
        )


@dataclass(frozen=True)
class RunTables:
    """What ``max_repeat_run`` reads of a model's two vocabularies: each source and target
    piece's runs, the target pieces by leading character, and each source piece's target id
    (:data:`NONE`: none). A source piece's runs are those of its NFKC form: "……" holds six
    dots, which a translation into English may write. ``bytes`` holds the id of each byte piece
    (``<0xE5>``, :data:`NONE` where the target has none): a run's next character spelt in bytes
    is forbidden by its first byte; ``spelt`` says of each target piece whether it is text (0),
    a byte that starts a character (1) or one that continues it (2)."""

    source: PieceRuns
    target: PieceRuns
    leads: LeadIndex
    source_to_target: Tensor
    bytes: Tensor  # 256
    spelt: Tensor  # V
    # copies on other devices, made once each: a GPU search does not upload them every batch
    copies: dict[torch.device, RunTables] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, source: Sequence[str], target: Sequence[str], sizes: tuple[int, int]) -> RunTables:
        """The tables of the pieces ``source`` and ``target`` ("" for a special piece; a byte
        piece ``<0xE5>`` holds no character), with the model's vocabulary ``sizes`` (source,
        target) rows."""
        byte_ids, spelt = [NONE] * 256, [0] * sizes[1]
        for i, piece in enumerate(target):
            if BYTE.fullmatch(piece):
                byte_ids[int(piece[3:5], 16)] = i
                spelt[i] = 2 if 0x80 <= int(piece[3:5], 16) < 0xC0 else 1
        ids = {piece: i for i, piece in enumerate(target) if piece}
        mapped = [ids.get(piece, NONE) if piece else NONE for piece in source]
        mapped += [NONE] * (sizes[0] - len(mapped))
        source, target = ([_text(p) for p in pieces] for pieces in (source, target))
        memo: Rows = {}  # a joint vocabulary's pieces are read once
        target_runs = PieceRuns.of(target, sizes[1], memo)
        compatible = [unicodedata.normalize("NFKC", piece) for piece in source]
        source_runs = PieceRuns.of(compatible, sizes[0], memo)
        tables = (torch.tensor(mapped), torch.tensor(byte_ids), torch.tensor(spelt))
        return cls(source_runs, target_runs, LeadIndex.of(target_runs), *tables)

    @classmethod
    def of_vocabularies(cls, source: Vocab, target: Vocab, sizes: tuple[int, int]) -> RunTables:
        """The tables of two SentencePiece vocabularies: their special and tag pieces hold no
        run."""
        target_texts = texts_of(target)
        source_texts = target_texts if source is target else texts_of(source)
        return cls.cached(source_texts, target_texts, sizes)

    @classmethod
    def cached(
        cls, source: Sequence[str], target: Sequence[str], sizes: tuple[int, int]
    ) -> RunTables:
        """:meth:`of`, read from fanyi's cache folder where made before: named by the pieces
        and sizes, keyed by the code that makes the tables."""
        pieces = hashlib.sha256(repr((list(source), list(target), sizes)).encode()).hexdigest()
        arrays = cached_arrays(
            f"run_tables-{pieces[:32]}", code_key(), lambda: cls.of(source, target, sizes).arrays()
        )
        return cls.from_arrays(arrays)

    def arrays(self) -> Arrays:
        """These tables as named arrays (``source.lead_char``, ``leads.width``, ``spelt``…)."""
        named: Arrays = {}
        parts: dict[str, PieceRuns | LeadIndex]
        parts = {"source": self.source, "target": self.target, "leads": self.leads}
        for prefix, part in parts.items():
            for column in fields(part):
                value = getattr(part, column.name)
                named[f"{prefix}.{column.name}"] = np.asarray(value)
        for name in ("source_to_target", "bytes", "spelt"):
            named[name] = getattr(self, name).numpy()
        return named

    @classmethod
    def from_arrays(cls, named: Arrays) -> RunTables:
        """The tables :meth:`arrays` gave."""

        def columns(prefix: str, of: type[PieceRuns] | type[LeadIndex]) -> list[Tensor]:
            names = [f"{prefix}.{c.name}" for c in fields(of) if c.name != "width"]
            return [torch.from_numpy(named[name]) for name in names]

        flat, start, at_least, key = columns("leads", LeadIndex)
        leads = LeadIndex(flat, start, at_least, key, int(named["leads.width"]))
        source, target = (PieceRuns(*columns(p, PieceRuns)) for p in ("source", "target"))
        mapped, byte_ids, spelt = (
            torch.from_numpy(named[n]) for n in ("source_to_target", "bytes", "spelt")
        )
        return cls(source, target, leads, mapped, byte_ids, spelt)

    def to(self, device: torch.device) -> RunTables:
        """These tables on ``device``."""
        if self.source_to_target.device == device:
            return self
        if device not in self.copies:
            self.copies[device] = RunTables(
                self.source.to(device),
                self.target.to(device),
                self.leads.to(device),
                self.source_to_target.to(device),
                self.bytes.to(device),
                self.spelt.to(device),
            )
        return self.copies[device]


def code_key() -> str:
    """What changes when the code that makes the tables does: this module's and ``text/runs.py``'s
    text, and the Unicode version of NFKC."""
    digest = hashlib.sha256(unicodedata.unidata_version.encode())
    for module in (__file__, runs_module.__file__):
        digest.update(Path(str(module)).read_bytes())
    return digest.hexdigest()


def texts_of(vocab: Vocab) -> list[str]:
    """Each piece of ``vocab`` as text, "" for a special or tag piece."""
    special = {PAD, UNK, BOS, EOS, *vocab.tags}
    return ["" if p in special else p for p in map(vocab.id_to_piece, range(len(vocab)))]


def _text(piece: str) -> str:
    """The characters ``piece`` holds: none for a byte piece."""
    return "" if BYTE.fullmatch(piece) else piece

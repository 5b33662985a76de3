"""A data directory's contract: its file names and ``manifest.json``, as typed records.

``fanyi prepare`` writes ``{train,dev,test}.{src,tgt}``, the SentencePiece model(s) and, last,
``manifest.json`` (:class:`Manifest`); training and evaluation read them through the names here.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import config as config_io
from ..inputs import read_json
from ..text.lang import lang_tag, split_tag
from ..text.languages import Languages
from .config import DataConfig

MANIFEST_FILE = "manifest.json"
SIDES = ("src", "tgt")
JOINT_SPM, SRC_SPM, TGT_SPM = "spm", "spm.src", "spm.tgt"  # SentencePiece model prefixes


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def split_file(split: str, side: str) -> str:
    """The file of one side of a split: ``train.src``."""
    return f"{split}.{side}"


@dataclass
class VocabInfo:
    """The vocabulary of a data directory: its SentencePiece model files and special ids."""

    joint: bool  # one model for source and target
    src_model: str  # file names in the data directory
    tgt_model: str
    src_size: int
    tgt_size: int
    tags: list[str]  # the <2xx> symbols, when sources are tagged
    pad_id: int
    unk_id: int
    bos_id: int
    eos_id: int


@dataclass
class Manifest:
    """What ``fanyi prepare`` made, from what: written last, so its presence means complete."""

    config: DataConfig
    inputs: dict[str, str]  # sha256 of each input file, by role (train, or train.de ...)
    input_paths: dict[str, str]
    report: dict[str, dict[str, Any]]  # the cleaning report of each input (Report.to_dict)
    pairs: dict[str, int]  # pairs per split
    concatenated_pairs: int  # of train's: pairs joined by concat_augment
    lines: dict[str, int]  # lines per split file (twice the pairs when bidirectional)
    vocab: VocabInfo
    outputs: dict[str, str]  # sha256 of each output file, by name
    versions: dict[str, str] = field(default_factory=dict)

    def save(self, data_dir: Path) -> None:
        """Write ``manifest.json`` through a temporary file, so a crash never leaves half of one."""
        tmp = data_dir / f".{MANIFEST_FILE}.tmp"
        text = json.dumps(config_io.to_dict(self), indent=2, ensure_ascii=False)
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(data_dir / MANIFEST_FILE)

    def data_files(self) -> dict[str, str]:
        """The checksums that identify the training data: train text and vocabulary models."""
        names = [split_file("train", side) for side in SIDES]
        return {k: self.outputs[k] for k in (*names, self.vocab.src_model, self.vocab.tgt_model)}

    def training_files(self) -> dict[str, str]:
        """The checksums of every file that training reads: all but the dev and test splits
        (the train split as text and as token shards, the shard index, the vocabularies)."""
        return {k: v for k, v in self.outputs.items() if not k.startswith(("dev.", "test."))}

    def training_files_found(self, data_dir: Path) -> dict[str, str]:
        """The checksums of :meth:`training_files` as the files in ``data_dir`` are now."""
        return {name: sha256_file(data_dir / name) for name in self.training_files()}


def read_manifest(data_dir: str | Path) -> Manifest:
    """The manifest of a prepared data directory (a clear error if there is none)."""
    path = Path(data_dir) / MANIFEST_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: is {data_dir} a directory of fanyi prepare?")
    values = read_json(path)
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a JSON object of Manifest keys")
    return config_io.from_dict(Manifest, values)


@dataclass
class SplitPairs:
    """The pairs of one direction of a prepared split."""

    sources: list[str]  # without their tags
    references: list[str]
    source_lang: str
    to: str


def read_pairs(
    data_dir: str | Path, split: str = "test", to: str | None = None, limit: int | None = None
) -> SplitPairs:
    """The (source, reference) pairs of ``split`` into ``to`` (default: the data's target
    language; a bidirectional split keeps its lines tagged ``<2to>``), the first ``limit``."""
    data_dir = Path(data_dir)
    config = read_manifest(data_dir).config
    languages = Languages(config.src_lang, config.tgt_lang, config.bidirectional)
    to = languages.target_of("", to or config.tgt_lang)
    sources, references = (
        (data_dir / split_file(split, side)).read_text(encoding="utf-8").splitlines()
        for side in SIDES
    )
    pairs = [(split_tag(s), r) for s, r in zip(sources, references, strict=True)]
    if config.lang_tags:
        pairs = [(tagged, r) for tagged, r in pairs if tagged[0] == lang_tag(to)]
    if not pairs:
        raise ValueError(f"{data_dir}/{split}: no sources into {to!r}")
    pairs = pairs[:limit]
    return SplitPairs(
        [text for (_, text), _ in pairs], [r for _, r in pairs], languages.source_of(to), to
    )

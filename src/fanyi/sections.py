"""What a model directory's ``config.yaml`` says, typed: its ``model``, ``data``, ``vocab`` and
``checkpoint`` sections as dataclasses, an ensemble's members as paths (``Checkpoint``), read with
every vocabulary file checked to lie inside the directory. The ``train`` and ``decode`` sections
are typed by the layers above that own them (``TrainConfig``, ``DecodeConfig``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from . import config as config_io
from .data import DataConfig
from .data.vocab import Vocab, model_vocabularies
from .filenames import CONFIG_FILE
from .model import ModelConfig

SAFE_LOADER = config_io.SAFE_LOADER
T = TypeVar("T")
# The largest sizes a model directory may declare: far above any model fanyi trains or converts
# (those of ``interop.marian.SIZES``), low enough that no config can make fanyi allocate more
# than its weights file holds before the weights are checked against it.
MODEL_SIZES = {
    "src_vocab_size": 1 << 21,
    "tgt_vocab_size": 1 << 21,
    "d_model": 1 << 14,
    "d_ff": 1 << 16,
    "h": 1 << 10,
    "N_enc": 256,
    "N_dec": 256,
    "max_len": 1 << 14,
}


@dataclass(frozen=True)
class VocabFiles:
    """The ``vocab`` section: the SentencePiece model(s), by file name in the directory, and where
    the model's ids are not SentencePiece's (a converted MarianMT) a JSON piece → id table."""

    src_model: str
    tgt_model: str
    joint: bool = False  # one model for both sides (src_model == tgt_model)
    ids: str | None = None

    def files(self) -> list[str]:
        """The file names, each once."""
        return list(dict.fromkeys(n for n in (self.src_model, self.tgt_model, self.ids) if n))

    def inside(self, directory: str) -> VocabFiles:
        """The same files named from a directory above, ``directory`` being their own (an
        ensemble's member)."""
        ids = f"{directory}/{self.ids}" if self.ids else None
        return VocabFiles(
            f"{directory}/{self.src_model}", f"{directory}/{self.tgt_model}", self.joint, ids
        )

    def section(self) -> dict[str, Any]:
        """As ``config.yaml`` holds it (``ids`` only where there is a table)."""
        values = config_io.to_dict(self)
        return values if self.ids else {k: v for k, v in values.items() if k != "ids"}


@dataclass
class RunInfo:
    """The ``checkpoint`` section: where the weights come from (keys another version wrote and
    this one does not know are ignored)."""

    step: int | None = None  # optimizer steps taken
    metrics: dict[str, float] = field(default_factory=dict)  # dev metrics at that step
    dtype: str | None = None  # what training computed in: fp32, bf16
    fanyi: str | None = None  # the version that wrote it
    averaged_from: list[str] = field(default_factory=list)  # the checkpoints averaged
    converted_from: str | None = None  # `fanyi convert`'s source: a directory or a Hub name
    converted_by: str | None = None  # a converter other than fanyi's (CTranslate2's)

    def section(self) -> dict[str, Any]:
        """As ``config.yaml`` holds it: the keys that are set."""
        return {k: v for k, v in config_io.to_dict(self).items() if v not in (None, [], {})}


@dataclass
class Checkpoint:
    """What ``config.yaml`` of a model directory says, and where the directory is.

    ``train`` and ``decode`` are typed by the layers above that own them: TrainConfig's keys
    (``train.state.saved_train_config``; None for a model not trained by fanyi) and
    DecodeConfig's (``translate.config.model_decode_config``), the defaults tuned on dev.
    """

    path: Path
    model: ModelConfig
    data: DataConfig
    vocab: VocabFiles
    info: RunInfo = field(default_factory=RunInfo)
    train: dict[str, Any] | None = None
    decode: dict[str, Any] = field(default_factory=dict)
    members: list[Path] = field(default_factory=list)  # an ensemble's model directories

    @property
    def src_spm(self) -> Path:
        return self.path / self.vocab.src_model

    @property
    def tgt_spm(self) -> Path:
        return self.path / self.vocab.tgt_model

    @property
    def model_dirs(self) -> list[Path]:
        """The model directories whose weights this decodes with: its members, or its own."""
        return self.members or [self.path]

    def vocabularies(self) -> tuple[Vocab, Vocab]:
        """The source and target vocabularies (one object where they are joint)."""
        return model_vocabularies(self.path, self.vocab.section())


def read_config(path: Path) -> Checkpoint:
    """The ``config.yaml`` of directory ``path``, whatever holds its weights (an exported
    CTranslate2 model keeps fanyi's configs and vocabularies beside its own files)."""
    sections = read_sections(path / CONFIG_FILE)
    try:
        model = config_io.from_dict(ModelConfig, sections["model"])
        check_sizes(model)
        return Checkpoint(
            path=path,
            model=model,
            data=config_io.from_dict(DataConfig, sections["data"]),
            vocab=known_keys(VocabFiles, sections["vocab"]),
            info=known_keys(RunInfo, sections.get("checkpoint") or {}),
            train=sections.get("train"),
            decode=sections.get("decode") or {},
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"{path / CONFIG_FILE}: {error}") from None


def known_keys(cls: type[T], values: dict[str, Any]) -> T:
    """``cls`` from the keys of ``values`` it knows (types checked: ``config.from_dict``)."""
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]  # a dataclass
    return config_io.from_dict(cls, {k: v for k, v in values.items() if k in names})


def read_sections(config: Path) -> dict[str, Any]:
    """``config.yaml`` as a mapping with ``model``, ``data`` and ``vocab`` sections, whose
    vocabulary files lie inside the model directory (a clear ValueError otherwise)."""
    sections = read_yaml(config)
    needed = ("model", "data", "vocab")
    if not all(isinstance(sections.get(k), dict) for k in needed):
        raise ValueError(f"{config}: expected a mapping with sections {', '.join(needed)}")
    for key in ("decode", "checkpoint"):
        if not isinstance(sections.get(key) or {}, dict):
            raise ValueError(f"{config}: section {key} must be a mapping")
    home = config.parent.resolve()
    for key in ("src_model", "tgt_model", "ids"):  # ids: a piece → id table, where there is one
        name = sections["vocab"].get(key)
        if name is not None and not (home / str(name)).resolve().is_relative_to(home):
            raise ValueError(f"{config}: vocabulary {name} is outside the model directory")
    return sections


def read_yaml(config: Path) -> dict[str, Any]:
    """``config`` parsed (bounded: ``config.read_yaml``): a mapping, or a clear ValueError."""
    sections = config_io.read_yaml(config)
    return sections if isinstance(sections, dict) else {}


def check_sizes(model: ModelConfig) -> None:
    """Refuse a model larger than any fanyi builds (``MODEL_SIZES``), before anything of its
    size is allocated."""
    for key, largest in MODEL_SIZES.items():
        if getattr(model, key) > largest:
            raise ValueError(f"model {key} {getattr(model, key)} is above {largest}")

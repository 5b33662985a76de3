"""``DecodeConfig``: the ``decode`` section a model directory saves, and the flags of
``fanyi translate``, ``evaluate`` and ``serve``: a model's :class:`SearchOptions` defaults and
the keys of :class:`LoadOptions` it may carry (``fanyi tune --dtypes`` writes ``auto_dtypes``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from .. import config as config_io
from ..ensemble_dir import ensemble_members, read_ensemble
from ..filenames import CONFIG_FILE
from ..model_dir import read_checkpoint
from ..sections import Checkpoint, read_config
from .options import (
    DTYPES,
    MAX_BEAM,
    MAX_LENGTH,
    MAX_WORKERS,
    Dtype,
    DtypeChoice,
    LoadOptions,
    LongInput,
    SearchOptions,
    for_target,
)

__all__ = [
    "MAX_BEAM",
    "MAX_LENGTH",
    "MAX_WORKERS",
    "DecodeConfig",
    "Dtype",
    "DtypeChoice",
    "LongInput",
    "for_target",
    "model_decode_config",
    "with_options",
]
LOAD_KEYS = ("dtype", "auto_dtypes", "compile", "workers")


@dataclass
class DecodeConfig(SearchOptions):
    """How to search for translations, and how fast. Every field is also a flag of
    ``fanyi translate``, ``evaluate`` and ``serve``; :meth:`search` and :meth:`load_options`
    are its two halves."""

    # auto: the fastest on this host of fp32 and the allowed others, timed (engines/dtype.py);
    # bf16: weights converted (not autocast); int8: dynamic quantisation of the linear maps
    dtype: DtypeChoice = "auto"
    auto_dtypes: list[Dtype] = field(default_factory=lambda: list(DTYPES))
    workers: int = 1  # split each batch across this many single-thread worker processes
    # run the decoder's steps compiled to C++ (model/inference/compiled.py; fp32 and bf16): 1.1-1.4x
    # faster decoding after a compile of 15-25 s per search and process; needs a C++ compiler
    compile: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        self.load_options()  # its checks

    def search(self) -> SearchOptions:
        """The search half: what each call may change."""
        names = [f.name for f in dataclasses.fields(SearchOptions)]
        return SearchOptions(**{name: getattr(self, name) for name in names})

    def load_options(
        self, device: str = "cpu", threads: int = 0, batch_tokens: int = 4096
    ) -> LoadOptions:
        """The load half, on ``device`` with ``threads`` and ``batch_tokens``."""
        keys = {name: getattr(self, name) for name in LOAD_KEYS}
        return LoadOptions(device=device, threads=threads, batch_tokens=batch_tokens, **keys)


def decode_config(search: SearchOptions, load: LoadOptions) -> DecodeConfig:
    """The two halves as one config (what ``dtype auto`` times a search by)."""
    keys = {f.name: getattr(search, f.name) for f in dataclasses.fields(SearchOptions)}
    return DecodeConfig(**keys, **{name: getattr(load, name) for name in LOAD_KEYS})


def with_options(config: DecodeConfig, options: dict) -> DecodeConfig:
    """``config`` overridden by ``options``; an α or λ given alone applies into every language."""
    for key in ("length_penalty", "rerank_backward"):
        if key in options and f"{key}_by_target" not in options:
            options = {**options, f"{key}_by_target": {}}
    return config_io.override(config, options)


def model_decode_config(checkpoint: Checkpoint) -> DecodeConfig:
    """The decoding defaults a model directory carries: the ``decode`` section of its
    ``config.yaml`` (tuned on dev by ``fanyi tune``) over DecodeConfig's own."""
    try:
        return config_io.from_dict(DecodeConfig, checkpoint.decode)
    except ValueError as error:
        raise ValueError(f"{checkpoint.path / CONFIG_FILE}: decode: {error}") from None


def decode_defaults(path: Path) -> DecodeConfig:
    """The decoding defaults of model (or ensemble, run, export) directory ``path``;
    DecodeConfig's own where it has no fanyi configs (CTranslate2's own converters')."""
    if ensemble_members(path) is not None:
        return model_decode_config(read_ensemble(path)[1])
    try:
        checkpoint = read_checkpoint(path)
    except (FileNotFoundError, ValueError):  # the engine says what is wrong as it loads
        if not (path / CONFIG_FILE).is_file():
            return DecodeConfig()
        checkpoint = read_config(path)  # an export: fanyi's configs beside another's weights
    return model_decode_config(checkpoint)

"""``DecodeConfig``: the three halves of how to translate, as the ``decode`` section of a model's
``config.yaml`` holds them (one flat mapping) and as every flag of ``fanyi translate``,
``evaluate``, ``serve`` and ``po`` names them.

- :class:`LoadOptions` (``decode/options.py``): fixed when a model is loaded (dtype, compile,
  workers; device, threads and batch tokens are flags of their own);
- :class:`SearchOptions` (``decode/options.py``): the search, per call and per request;
- :class:`TextOptions` (``text/options.py``): the text transforms, per call and per request.

:meth:`DecodeConfig.override` is the one place a user's choices are applied, for the CLI, HTTP
and the Python API alike: an α, λ or β given without its per-language map applies into every
language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import config as config_io
from ..decode.options import LoadOptions, SearchOptions
from ..filenames import CONFIG_FILE
from ..sections import Checkpoint, read_config
from ..text.options import TextOptions
from ..text.registry import text_options

# The LoadOptions keys a model's decode section and the config keys carry (device, threads and
# batch_tokens are each a flag of their own)
LOAD_KEYS = ("dtype", "auto_dtypes", "compile", "workers")
SEARCH_KEYS = tuple(f.name for f in dataclasses.fields(SearchOptions))
# given alone, each applies into every language: its ``…_by_target`` map is cleared
ALONE = ("length_penalty", "rerank_backward", "script_penalty")


def text_keys() -> list[str]:
    """The TextOptions keys (the registry's, so a new transform's too)."""
    return [option.name for option in text_options()]


def config_keys() -> list[str]:
    """Every key of a decode section, in order: load, search, text."""
    return [*LOAD_KEYS, *SEARCH_KEYS, *text_keys()]


@dataclass(frozen=True, init=False)
class DecodeConfig:
    """How to translate: its load, search and text halves. Also built from flat keys of any
    half, as a decode section holds them: ``DecodeConfig(beam=4, dtype="fp32")``."""

    load: LoadOptions
    search: SearchOptions
    text: TextOptions

    def __init__(
        self,
        load: LoadOptions | None = None,
        search: SearchOptions | None = None,
        text: TextOptions | None = None,
        **keys: Any,
    ) -> None:
        halves = (load or LoadOptions(), search or SearchOptions(), text or TextOptions())
        if keys:
            built = DecodeConfig(*halves).override(keys, alone=False)
            halves = (built.load, built.search, built.text)
        for name, half in zip(("load", "search", "text"), halves, strict=True):
            object.__setattr__(self, name, half)

    def override(self, given: dict[str, Any], alone: bool = True) -> DecodeConfig:
        """A copy with the flat keys ``given`` (values, or flags' and YAML's text) over it; with
        ``alone``, an α, λ or β given without its ``…_by_target`` map applies into every
        language. A ValueError names an unknown key or a bad value."""
        if unknown := sorted(set(given) - set(config_keys())):
            raise ValueError(f"unknown DecodeConfig key(s): {', '.join(unknown)}")
        given = dict(given)
        for key in ALONE if alone else ():
            if key in given and f"{key}_by_target" not in given:
                given[f"{key}_by_target"] = {}
        return DecodeConfig(
            config_io.override(self.load, _picked(given, LOAD_KEYS)),
            config_io.override(self.search, _picked(given, SEARCH_KEYS)),
            self.text.replace(**_picked(given, text_keys())),
        )

    def to_dict(self) -> dict[str, Any]:
        """The flat mapping a model's decode section holds."""
        load = {key: getattr(self.load, key) for key in LOAD_KEYS}
        return {**load, **config_io.to_dict(self.search), **self.text.to_dict()}


def _picked(values: dict[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """The entries of ``values`` whose key is one of ``keys``."""
    return {key: value for key, value in values.items() if key in keys}


def model_decode_config(checkpoint: Checkpoint) -> DecodeConfig:
    """The decoding defaults a model directory carries: the ``decode`` section of its
    ``config.yaml`` (tuned on dev by ``fanyi tune``) over DecodeConfig's own."""
    try:
        return DecodeConfig().override(checkpoint.decode or {}, alone=False)
    except ValueError as error:
        raise ValueError(f"{checkpoint.path / CONFIG_FILE}: decode: {error}") from None


def decode_defaults(path: Path) -> DecodeConfig:
    """The decoding defaults of model (or ensemble, run, export) directory ``path``;
    DecodeConfig's own where it has no fanyi configs (CTranslate2's own converters')."""
    # here, not at the top: the flags of every DecodeConfig key are made without torch
    from ..ensemble_dir import ensemble_members, read_ensemble
    from ..model_dir import read_checkpoint

    if ensemble_members(path) is not None:
        return model_decode_config(read_ensemble(path)[1])
    try:
        checkpoint = read_checkpoint(path)
    except (FileNotFoundError, ValueError):  # the engine says what is wrong as it loads
        if not (path / CONFIG_FILE).is_file():
            return DecodeConfig()
        checkpoint = read_config(path)  # an export: fanyi's configs beside another's weights
    return model_decode_config(checkpoint)

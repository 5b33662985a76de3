"""The flags of every DecodeConfig key, for the commands that translate (``translate``,
``evaluate``, ``serve``, ``po``, ``tune``, …): the load keys, each search option and each text
option of the registry, every one spelt ``--key-name VALUE`` (``--beam 4``, ``--keep-numbers
false``), parsed as the YAML of ``--config FILE`` would be."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from .. import config as config_io
from ..decode.options import SEARCH_HELP, LoadOptions, SearchOptions
from ..filenames import CONFIG_FILE
from ..text.registry import text_options
from ..translate.config import LOAD_KEYS
from ..translate.model_names import resolve_model_dir

LOAD_HELP = {
    "dtype": "auto (the fastest on this host, timed), fp32, bf16 or int8",
    "auto_dtypes": "the dtypes auto may pick, comma-separated",
    "compile": "decoder steps compiled to C++ (fp32, bf16; needs a C++ compiler)",
    "workers": "split each batch across this many single-thread processes",
}


def add_decode_flags(parser: argparse.ArgumentParser) -> None:
    """A ``--key`` flag per DecodeConfig key (default: not given, so the model's own holds);
    the help names each default, the bundled model's where its config.yaml sets one."""
    model = _model_defaults()
    load = {f.name: f for f in dataclasses.fields(LoadOptions)}
    search = {f.name: f for f in dataclasses.fields(SearchOptions)}
    for name in LOAD_KEYS:
        _flag(parser, name, LOAD_HELP[name], model.get(name) or _default(load[name]))
    for name, field in search.items():
        _flag(parser, name, SEARCH_HELP[name], model.get(name) or _default(field))
    for option in text_options():
        _flag(parser, option.name, option.help, model.get(option.name) or repr(option.default))


def given_keys(args: argparse.Namespace, config_file: str | None) -> dict[str, Any]:
    """The DecodeConfig keys a user set: those of ``--config FILE``, then the flags given on
    top of it (values as written; ``DecodeConfig.override`` parses them)."""
    values: dict[str, Any] = {}
    if config_file is not None:
        loaded = config_io.read_yaml(config_file) or {}
        if not isinstance(loaded, dict):
            raise ValueError(f"{config_file}: expected a mapping of DecodeConfig keys")
        values.update(loaded)
    names = [*LOAD_KEYS, *(f.name for f in dataclasses.fields(SearchOptions))]
    for name in names + [option.name for option in text_options()]:
        if (flag := getattr(args, name, None)) is not None:
            values[name] = flag
    return values


def _flag(parser: argparse.ArgumentParser, name: str, help: str, default: str) -> None:
    flag = "--" + name.replace("_", "-")
    names = [flag, f"--{name}"] if "_" in name else [flag]
    parser.add_argument(
        *names, dest=name, default=None, metavar="VALUE", help=f"{help} (default: {default})"
    )


def _default(field: dataclasses.Field) -> str:
    if field.default is not dataclasses.MISSING:
        return repr(field.default)
    if field.default_factory is not dataclasses.MISSING:
        return repr(field.default_factory())
    return "required"


def _model_defaults() -> dict[str, str]:
    """How the help names the defaults a model's ``config.yaml`` sets: "the model's (bundled:
    3.0)", read from the bundled model's file without its weights."""
    try:
        section = config_io.read_yaml(resolve_model_dir(None) / CONFIG_FILE).get("decode")
    except (FileNotFoundError, ValueError, AttributeError):
        return {}
    if not isinstance(section, dict):
        return {}
    return {key: f"the model's (bundled: {value!r})" for key, value in section.items()}

"""Configuration: one dataclass per concern, saved as YAML, every key overridable.

Each concern (model, data, training, decoding) owns a dataclass. This module holds the shared
machinery: converting dataclasses to and from plain dicts and YAML files, and turning every
field into a command-line flag (``--d-model 256``) whose value is parsed as the file's would be.
"""

from __future__ import annotations

import dataclasses
import reprlib
import types
import typing
from pathlib import Path
from typing import Any, Literal, NoReturn, TypeVar

import yaml

from .inputs import CONFIG_BYTES, MAX_DEPTH, bounded, read_text

# libyaml's safe loader where PyYAML was built with it: 5-10x faster at a model's config.yaml
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
T = TypeVar("T")


def to_dict(config: Any) -> dict[str, Any]:
    """A dataclass as a plain, YAML/JSON-serialisable dict."""
    return dataclasses.asdict(config)


def from_dict(cls: type[T], values: dict[str, Any]) -> T:
    """Build ``cls`` from a dict, refusing unknown keys and checking simple types."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]  # T is a dataclass
    unknown = sorted(reprlib.repr(key).strip("'") for key in set(values) - set(fields))
    if unknown:
        raise ValueError(f"unknown {cls.__name__} key(s): {', '.join(unknown[:10])}")
    hints = typing.get_type_hints(cls)
    kwargs = {name: _coerce(hints[name], value, name) for name, value in values.items()}
    return cls(**kwargs)


def save_yaml(config: Any, path: str | Path) -> None:
    Path(path).write_text(yaml.safe_dump(to_dict(config), sort_keys=False, allow_unicode=True))


def load_yaml(cls: type[T], path: str | Path) -> T:
    values = read_yaml(path) or {}
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a mapping of {cls.__name__} keys")
    return from_dict(cls, values)


def read_yaml(path: str | Path) -> Any:
    """The plain data (mappings, lists, scalars) of YAML file ``path``; a clear ``ValueError``
    naming the file when it is not a regular file of at most ``inputs.CONFIG_BYTES``, not
    UTF-8, not YAML, too deep or too large once its aliases are expanded, or holds a tag
    (``!!python/object``)."""
    text = read_text(path, CONFIG_BYTES)  # a FIFO, /dev/zero or a huge file: refused unread
    try:
        return parse_yaml(text)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def parse_yaml(text: str) -> Any:
    """The plain data of YAML ``text``, a ``ValueError`` saying where it is not (safe load: a
    tag that would build an object is refused), nor bounded (``inputs.check_shape``: depth,
    and values counted with every alias expanded)."""
    try:
        value = yaml.load(text, Loader=SAFE_LOADER)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    except yaml.YAMLError:
        _explain(text)
    bounded(value)
    return value


def _explain(text: str) -> NoReturn:
    """Raise a ValueError saying where YAML ``text`` is not valid, in the words of PyYAML's own
    parser (libyaml's, which parses it faster, say less)."""
    try:
        yaml.safe_load(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ValueError(f"not valid YAML{where}: {problem}"[:300]) from None
    raise ValueError("not valid YAML")  # libyaml refused what PyYAML reads: not expected


def override(config: T, overrides: dict[str, Any]) -> T:
    """A copy of ``config`` with ``overrides`` applied (values may be strings from a CLI)."""
    merged = {**to_dict(config), **overrides}
    return from_dict(type(config), merged)


def _coerce(hint: Any, value: Any, name: str) -> Any:
    """Turn ``value`` (possibly a string from the command line) into type ``hint``."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        is_none = value is None or (isinstance(value, str) and value.lower() in ("none", "null"))
        if is_none and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(inner[0], value, name)
    if origin is Literal:
        if value not in args:
            raise ValueError(
                f"{name}: {reprlib.repr(value)} is not one of {', '.join(map(str, args))}"
            )
        return value
    if origin in (list, tuple):
        if isinstance(value, str):
            value = [v for v in value.split(",") if v] if value else []
        items = [_coerce(args[0], v, name) for v in value] if args else list(value)
        return tuple(items) if origin is tuple else items
    if origin is dict or dataclasses.is_dataclass(hint):
        return _mapping(hint, value, name)
    return _scalar(hint, value, name)


def _mapping(hint: Any, value: Any, name: str) -> Any:
    """A dict, or a nested config dataclass, from a mapping or its YAML text (``{d_model: 64}``)."""
    if isinstance(value, str):
        try:
            value = parse_yaml(value) or {}
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value
        if not isinstance(value, dict):
            raise ValueError(
                f"{name}: expected a mapping of {hint.__name__} keys, got {reprlib.repr(value)}"
            )
        return from_dict(hint, value)
    return dict(value)


def _scalar(hint: Any, value: Any, name: str) -> Any:
    """A bool (``true``/``no``/``1``...), int, float or str."""
    if hint is bool:
        if isinstance(value, str):
            lowered = value.lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{name}: {reprlib.repr(value)} is not a boolean")
        return bool(value)
    if hint in (int, float, str):
        try:
            if hint is int and isinstance(value, float) and not value.is_integer():
                raise ValueError
            return hint(value)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name}: {reprlib.repr(value)} is not a valid {hint.__name__}"
            ) from None
    return value


def add_arguments(
    parser: Any, cls: type, prefix: str = "", defaults: dict[str, str] | None = None
) -> None:
    """Add one ``--key`` flag per field of dataclass ``cls`` (default: not given).

    Values are parsed by :func:`from_dict`, so a flag accepts what the YAML file accepts; lists
    are comma-separated. Flags spell ``_`` as ``-`` (``--d-model``); both spellings work. The help
    names each field's default: ``defaults[key]`` where given (what the flag falls back on when
    it is not the dataclass's own), else the dataclass's.
    """
    defaults = defaults or {}
    for field in dataclasses.fields(cls):
        flag = f"--{prefix}{field.name}"
        names = [flag.replace("_", "-")]
        if "_" in field.name:
            names.append(flag)
        parser.add_argument(
            *names,
            dest=f"{prefix}{field.name}",
            default=None,
            metavar="VALUE",
            help=f"{cls.__name__}.{field.name} (default: "
            f"{defaults.get(field.name) or _default_text(field)})",
        )


def from_arguments(
    cls: type[T], args: Any, config_file: str | Path | None = None, prefix: str = ""
) -> T:
    """``cls`` from a YAML file (or defaults), then every flag the user gave on top of it."""
    return from_dict(cls, given(cls, args, config_file, prefix))


def given(
    cls: type, args: Any, config_file: str | Path | None = None, prefix: str = ""
) -> dict[str, Any]:
    """The ``cls`` keys a user set: those of a YAML file, then the flags given on top of it
    (values still as written; :func:`from_dict` or :func:`override` parses them)."""
    values: dict[str, Any] = {}
    if config_file is not None:
        loaded = read_yaml(config_file) or {}
        if not isinstance(loaded, dict):
            raise ValueError(f"{config_file}: expected a mapping of {cls.__name__} keys")
        values.update(loaded)
    for field in dataclasses.fields(cls):
        flag = getattr(args, f"{prefix}{field.name}", None)
        if flag is not None:
            values[field.name] = flag
    return values


def _default_text(field: dataclasses.Field) -> str:
    if field.default is not dataclasses.MISSING:
        return repr(field.default)
    if field.default_factory is not dataclasses.MISSING:
        return repr(field.default_factory())
    return "required"

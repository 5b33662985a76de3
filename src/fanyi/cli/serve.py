"""``fanyi serve``: the HTTP API (``POST /translate``, ``GET /health``, OpenAPI at ``/docs``) and
the web page at ``/``, with uvicorn.

Every flag is also a key of ``--config FILE``, a YAML mapping written as the flags' names with
underscores (the flags given on the command line win over it):

    host: 0.0.0.0
    port: 8080
    model: zh-en-general
    threads: 2
    max_chars: 2000        # the limits of a request
    timeout: 60
    beam: 4                # and every DecodeConfig key: the decoding defaults of a request
    dtype: int8
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from .. import config as config_io
from ..decode.options import MAX_BATCH_TOKENS
from ..engines.registry import ALIASES, ENGINES
from ..serve.limits import LIMIT_BOUNDS, LIMIT_HELP, Limits
from ..translate.config import config_keys
from .arguments import at_least, device, seconds, threads
from .translate import add_model_arguments, load_translator

HOST, PORT = "127.0.0.1", 8000
# The flags of the model that a config file may set too (besides every DecodeConfig key)
MODEL_KEYS = ("model", "engine", "device", "threads", "batch_tokens")
DEFAULTS = {"host": HOST, "port": PORT, "engine": "fanyi", "device": "cpu", "threads": 0}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="HTTP API and web page (FastAPI + uvicorn)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        conflict_handler="resolve",  # --config: this command's own file
    )
    add_model_arguments(parser, target=False)
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="YAML file of this command's keys: host, port, model, the limits and every "
        "DecodeConfig key (the flags given win over it)",
    )
    parser.add_argument("--host", help=f"address to listen on (default {HOST})")
    parser.add_argument(
        "--port",
        type=at_least(0, 65535),
        help=f"port to listen on; 0: any free one (default {PORT})",
    )
    for field in dataclasses.fields(Limits):
        add_limit(parser, field)
    # None: not given, so that a config file's value shows through (defaults: ``settings``)
    parser.set_defaults(func=run, batch_tokens=None, **{key: None for key in DEFAULTS})


def add_limit(parser: argparse.ArgumentParser, field: dataclasses.Field) -> None:
    """The flag of one of :class:`Limits`' fields: its help, bounds and default."""
    low, high = LIMIT_BOUNDS[field.name]
    if field.name == "timeout":
        kind: Any = seconds
    elif field.type == "int":
        kind = at_least(int(low), int(high))
    else:
        kind = within(low, high)
    flag = "--" + field.name.replace("_", "-")
    help = f"{LIMIT_HELP[field.name]} (default {field.default})"
    metavar = "N" if field.type == "int" else "SECONDS"
    parser.add_argument(flag, type=kind, metavar=metavar, help=help)


def within(low: float, high: float) -> Any:
    """A number from ``low`` to ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g}, not {text}")
        return value

    return parse


def settings(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the keys of ``--config FILE`` where no flag was given, then each default:
    the model's flags, host, port and limits read as their flags read them; DecodeConfig keys
    as YAML gives them. A key the command does not have is an error naming the file."""
    values = _read(args.config) if args.config else {}
    limits = [field.name for field in dataclasses.fields(Limits)]
    known = {"host", "port", *MODEL_KEYS, *limits, *config_keys()}
    if unknown := sorted(set(values) - known):
        raise ValueError(
            f"{args.config}: unknown key(s) {', '.join(unknown)}; fanyi serve takes host, "
            "port, model, engine, device, threads, batch_tokens, the limits "
            f"({', '.join(limits)}) and the DecodeConfig keys"
        )
    for key, value in values.items():
        if getattr(args, key, None) is None:
            setattr(args, key, _typed(key, value, args.config))
    for key, value in {**DEFAULTS, "batch_tokens": 4096}.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.config = None  # read: load_translator takes its DecodeConfig keys from args
    return args


def _typed(key: str, value: Any, path: str) -> Any:
    """``value`` of ``key`` in config file ``path``, checked as its flag checks it (a limit:
    a number, which :class:`Limits` bounds; a DecodeConfig key: as DecodeConfig reads it)."""
    kinds: dict[str, Any] = {
        "port": at_least(0, 65535),
        "threads": threads,
        "device": device,
        "batch_tokens": at_least(1, MAX_BATCH_TOKENS),
        "engine": _engine,
        **{f.name: _number for f in dataclasses.fields(Limits)},
    }
    if key not in kinds:
        return value if key in config_keys() else str(value)  # host, model
    try:
        return kinds[key](value if key in LIMIT_BOUNDS else str(value))
    except (argparse.ArgumentTypeError, ValueError) as error:
        raise ValueError(f"{path}: {key}: {error}") from None


def _engine(name: str) -> str:
    if name not in ENGINES and name not in ALIASES:
        raise ValueError(f"no engine {name!r}: choose one of {', '.join(ENGINES)}")
    return name


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"must be a number, not {value!r}")
    return value


def _read(path: str) -> dict[str, Any]:
    """The mapping of YAML file ``path``."""
    found = config_io.read_yaml(path) or {}
    if not isinstance(found, dict):
        raise ValueError(f"{path}: expected a mapping of fanyi serve's keys")
    return found


def run(args: argparse.Namespace) -> int:
    import uvicorn  # only this command needs it

    from ..serve import create_app
    from ..serve.connections import connection_settings
    from ..serve.memory import bound_kernel_caches

    bound_kernel_caches()  # before the model loads: oneDNN reads them once
    args = settings(args)
    limits = Limits(**{f.name: _limit(args, f) for f in dataclasses.fields(Limits)})
    translator = load_translator(args)
    if translator.engine.options.compile:  # before the first request, not within its timeout
        print("fanyi serve: compiling the decoder step (15-25 s a model) ...", file=sys.stderr)
        translator.translate(
            ["你好。我很好。", "Hello. How are you?"] * 2, to=translator.targets[0]
        )
    app = create_app(translator, limits)
    connections = connection_settings(limits)  # idle and slow connections closed
    uvicorn.run(app, host=args.host, port=int(args.port), log_level="info", **connections)
    return 0


def _limit(args: argparse.Namespace, field: dataclasses.Field) -> Any:
    """The value of limit ``field``: given (a flag, a config key), else its default."""
    value = getattr(args, field.name)
    return field.default if value is None else value

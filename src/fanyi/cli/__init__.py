"""``fanyi <command>``: each command is a module here that parses its flags and calls one function.

A command module defines ``add_parser(subparsers)``, which registers the sub-parser and sets
``func`` (called with the parsed arguments, returning an exit status).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__

# One line per command module (fanyi.cli.<name>), in the order `fanyi --help` lists them.
COMMANDS = [
    "demo",
    "prepare",
    "data",
    "train",
    "average",
    "convert",
    "export",
    "translate",
    "evaluate",
    "serve",
    "plot",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fanyi", description="fanyi (翻译): Transformer neural machine translation."
    )
    parser.add_argument("--version", action="version", version=f"fanyi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, FileNotFoundError) as error:  # user errors: one clear line, no traceback
        print(f"fanyi {args.command}: error: {error}", file=sys.stderr)
        return 2

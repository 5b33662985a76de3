"""``fanyi <command>``: each command is a module here that parses its flags and calls one function.

A command module defines ``add_parser(subparsers)``, which registers the sub-parser and sets
``func`` (called with the parsed arguments, returning an exit status). Only the command named is
imported, so that ``fanyi translate`` never loads the trainer (all of them for ``--help``).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .._version import __version__

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
    "recipe",
]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``command`` (when it is one of COMMANDS), else of every command."""
    parser = argparse.ArgumentParser(
        prog="fanyi", description="fanyi (翻译): Transformer neural machine translation."
    )
    parser.add_argument("--version", action="version", version=f"fanyi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in [command] if command in COMMANDS else COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, FileNotFoundError) as error:  # user errors: one clear line, no traceback
        print(f"fanyi {args.command}: error: {error}", file=sys.stderr)
        return 2

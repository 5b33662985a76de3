"""One vocabulary of flags across commands: ``-o/--output`` for what a command writes, ``--dtype``
for a precision, switches with ``--no-`` forms (``argparse.BooleanOptionalAction``), ``--to`` for
a language only. An old spelling stays for one release as a hidden alias that warns."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any


class DeprecatedAlias(argparse.Action):
    """A hidden old spelling of flag ``new``: stores where ``new`` does (its value mapped by
    ``convert``), saying on stderr which spelling to use instead."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        new: str = "",
        convert: Callable[[str], Any] = str,
        **kwargs: Any,
    ) -> None:
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)
        self.new, self.convert = new, convert

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(
            f"{parser.prog}: warning: {option_string} is deprecated and goes in the next "
            f"release; use {self.new}",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, self.convert(values))


def deprecated(
    parser: argparse.ArgumentParser,
    old: str,
    new: str,
    dest: str,
    convert: Callable[[str], Any] = str,
    **kwargs: Any,
) -> None:
    """Register ``old`` as a deprecated spelling of ``new`` (which stores in ``dest``)."""
    parser.add_argument(old, dest=dest, action=DeprecatedAlias, new=new, convert=convert, **kwargs)


class DeprecatedValues(argparse.Action):
    """A flag whose old values still work for one release, hidden from the help: ``aliases``
    maps each to the arguments it stands for (dest → value), which it sets, saying on stderr
    how to write them instead."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        aliases: dict[str, dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.aliases = aliases or {}

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        stands_for = self.aliases.get(values, {self.dest: values})
        if values in self.aliases:
            spelt = " ".join(f"--{k.replace('_', '-')} {_spelt(v)}" for k, v in stands_for.items())
            print(
                f"{parser.prog}: warning: {option_string} {values} is deprecated and goes in the "
                f"next release; use {spelt}",
                file=sys.stderr,
            )
        for dest, value in stands_for.items():
            setattr(namespace, dest, value)


def deprecated_values(
    parser: argparse.ArgumentParser,
    flag: str,
    choices: Sequence[str],
    aliases: dict[str, dict[str, Any]],
    **kwargs: Any,
) -> None:
    """``flag`` taking one of ``choices``, or one of the deprecated ``aliases`` (old value → the
    arguments it stands for; see :class:`DeprecatedValues`)."""

    def value(text: str) -> str:
        if text not in choices and text not in aliases:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {text!r} (choose from {', '.join(choices)})"
            )
        return text

    metavar = "{" + ",".join(choices) + "}"
    parser.add_argument(
        flag, type=value, metavar=metavar, action=DeprecatedValues, aliases=aliases, **kwargs
    )


def _spelt(value: Any) -> str:
    """``value`` as a flag's argument: a bool as YAML writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def switch(parser: argparse.ArgumentParser, flag: str, help: str, default: bool = False) -> None:
    """A boolean flag with its ``--no-`` form (``--write`` / ``--no-write``)."""
    parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help)

"""``fanyi plot [KIND] ...``: figures as PNG. ``fanyi plot RUN`` is ``fanyi plot curves RUN``.

Each kind of figure is a sub-command registered in :data:`PLOTS` by a function that adds its
parser; add another (``attention``, ``positional``) by writing one such function.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .plot_attention import add_attention, add_positional

DEFAULT = "curves"


def add_curves(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("curves", help="training and validation curves of a run")
    parser.add_argument("run", metavar="RUN", help="a run directory written by `fanyi train`")
    parser.add_argument("-o", "--output", help="PNG to write (default RUN/curves.png)")
    parser.set_defaults(func=_curves)


def _curves(args: argparse.Namespace) -> int:
    from ..plot import plot_curves  # matplotlib only when drawing

    print(plot_curves(args.run, args.output))
    return 0


PLOTS: list[Callable[[argparse._SubParsersAction], None]] = [
    add_curves,
    add_attention,
    add_positional,
]


class _DefaultKind(argparse._SubParsersAction):
    """Sub-commands where an unknown first word means ``DEFAULT`` followed by that word."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        if values and values[0] not in self._name_parser_map.keys():  # noqa: SIM118 (see _AnyName)
            values = [DEFAULT, *values]
        super().__call__(parser, namespace, values, option_string)


class _AnyName(dict):
    """The sub-command map, letting any first word past argparse's check (see _DefaultKind)."""

    def __contains__(self, key: object) -> bool:
        return True


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "plot",
        help="draw figures (training curves, ...) to PNG",
        description="fanyi plot RUN draws the curves of a run; see the kinds below.",
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", action=_DefaultKind, required=True)
    for add in PLOTS:
        add(kinds)
    kinds.choices = _AnyName(kinds._name_parser_map)
    kinds._name_parser_map = kinds.choices

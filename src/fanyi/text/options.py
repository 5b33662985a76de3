"""``TextOptions``: which text transforms run, with their settings, per call and per request.

Its keys are the registry's options (``registry.text_options``), so a new transform's switches
are keys here, flags of ``fanyi translate``, fields of the HTTP request and rows of docs/text.md
(``python -m fanyi.text.options --update docs/text.md`` writes that table) without another line of code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .registry import text_options


class TextOptions:
    """The text options' values: each a registry option's default unless given."""

    __slots__ = ("_values",)

    def __init__(self, **values: Any) -> None:
        known = {option.name: option for option in text_options()}
        if unknown := sorted(set(values) - set(known)):
            raise ValueError(f"unknown TextOptions key(s): {', '.join(unknown)}")
        chosen = {name: option.default for name, option in known.items()}
        chosen.update({name: known[name].parse(value) for name, value in values.items()})
        object.__setattr__(self, "_values", chosen)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"TextOptions has no option {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TextOptions is immutable: use replace()")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextOptions) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items())))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._values.items() if v != TextOptions.default(k)}
        return f"TextOptions({', '.join(f'{k}={v!r}' for k, v in changed.items())})"

    @staticmethod
    def default(name: str) -> Any:
        """The default of option ``name``."""
        return next(option.default for option in text_options() if option.name == name)

    def replace(self, **changes: Any) -> TextOptions:
        """A copy with ``changes``."""
        return TextOptions(**{**self._values, **changes})

    def to_dict(self) -> dict[str, Any]:
        """The values by key, in the registry's order."""
        return dict(self._values)


def markdown() -> str:
    """The table of text options for docs/text.md: option, flag, default, what it does."""
    rows = ["| option | flag | default | what it does |", "| --- | --- | --- | --- |"]
    for option in text_options():
        values = option.values or ", ".join(option.choices) or "true, false"
        default = str(option.default).lower()
        rows.append(
            f"| `{option.name}` | `{option.flag}` ({values}) | `{default}` | {option.help} |"
        )
    return "\n".join(rows) + "\n"


def update(path: Path) -> None:
    """Rewrite the generated block of the docs page ``path`` with :func:`markdown`."""
    page = path.read_text(encoding="utf-8")
    begin, end = page.index(BEGIN), page.index(END)
    start = page.index("\n", begin) + 1
    path.write_text(page[:start] + markdown() + page[end:], encoding="utf-8")


BEGIN, END = "<!-- BEGIN text options", "<!-- END text options -->"

if __name__ == "__main__":
    if sys.argv[1:2] == ["--markdown"] and len(sys.argv) == 2:
        sys.stdout.write(markdown())
    elif sys.argv[1:2] == ["--update"] and len(sys.argv) == 3:
        update(Path(sys.argv[2]))
    else:
        sys.exit("usage: python -m fanyi.text.options --markdown | --update docs/text.md")

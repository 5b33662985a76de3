"""The text features in the order they read a text (and, reversed, write a translation back):
the Chinese script last written, a list marker read first and written back outside the rest,
inline code before the numbers inside it, emoji (read out after the code that may hold them,
written back before it), addresses, a user's terms, dates and names held
before the numbers in them (a user's term before the dates and names inside it).
A new feature is one module with a :class:`~.transform.Transform` and one entry here."""

from __future__ import annotations

from .chinese_script import Script
from .code_spans import Code
from .dates import Dates
from .emoji import Emoji
from .glossary import Terms
from .lang import Spacing
from .links import Links
from .list_markers import ListMarkers
from .names_hold import Names
from .numerals import Numbers
from .recase import Headlines
from .transform import Option, Transform

# The pipeline's own switch, which no transform owns
SPLIT_SENTENCES = Option(
    "split_sentences", True, "translate each sentence of a text on its own, then join them"
)
TRANSFORMS: list[Transform] = [
    Script(),
    ListMarkers(),
    Spacing(),
    Code(),
    Emoji(),
    Links(),
    Terms(),
    Dates(),
    Names(),
    Numbers(),
    Headlines(),
]


def transforms() -> list[Transform]:
    """The registered transforms, in reading order."""
    return list(TRANSFORMS)


def text_options() -> list[Option]:
    """Every text option: the pipeline's, then each transform's, in order."""
    return [SPLIT_SENTENCES, *(option for t in TRANSFORMS for option in t.options)]


def register(transform: Transform, before: str | None = None) -> None:
    """Add ``transform`` to the pipeline (before the one named ``before``, else last); its
    options become keys of TextOptions, flags, HTTP fields and docs rows."""
    if any(t.name == transform.name for t in TRANSFORMS):
        raise ValueError(f"a text transform named {transform.name!r} is registered already")
    taken = {option.name for option in text_options()}
    if clash := taken & {option.name for option in transform.options}:
        raise ValueError(f"text option(s) {', '.join(sorted(clash))} exist already")
    names = [t.name for t in TRANSFORMS]
    TRANSFORMS.insert(names.index(before) if before in names else len(names), transform)


def unregister(name: str) -> None:
    """Take the transform called ``name`` out of the pipeline."""
    TRANSFORMS[:] = [t for t in TRANSFORMS if t.name != name]

"""The protocol every text feature follows.

A :class:`Transform` reads a text before the model sees it (``read``: what the model should read,
and a memo of what it changed), may recase the sentences the text is cut into
(``read_sentences``), names the phrases a translation of one sentence must hold (``held``: where
a translation misses one, it is searched again, held to them), and writes its memo back into
each translation (``write_back``). Its switches are :class:`Option` s: each one a key of
``TextOptions``, a flag of ``fanyi translate``, a field of the HTTP request and a row of
docs/text.md, all made from the registry (``registry.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Option:
    """One switch of a transform: its key, default and one line of help. A string option names
    its ``choices``; an option of another kind its ``read`` (a value from a flag's text, YAML,
    JSON or the API), how the docs name its ``values`` and its ``json`` type over HTTP; any
    other is a boolean."""

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    read: Callable[[object], Any] | None = None
    values: str = ""
    json: Any = None

    @property
    def flag(self) -> str:
        """The command-line flag: ``--keep-numbers``."""
        return "--" + self.name.replace("_", "-")

    def parse(self, value: object) -> Any:
        """``value`` checked (a flag's or YAML's text accepted), or a ValueError naming it."""
        if self.read is not None:
            return self.read(value)
        if self.choices:
            if value not in self.choices:
                names = f"{', '.join(self.choices[:-1])} or {self.choices[-1]}"
                raise ValueError(f"{self.name} must be {names}, not {value!r}")
            return str(value)
        if isinstance(value, str) and value.lower() in TRUE_WORDS + FALSE_WORDS:
            return value.lower() in TRUE_WORDS
        if not isinstance(value, bool):
            raise ValueError(f"{self.name} must be true or false, not {value!r}")
        return value


@dataclass(frozen=True)
class Context:
    """What a transform may know of the translation it serves: the languages, the text options
    (``TextOptions``), the model's truecasing table, the spans earlier write-backs keep as
    written (``kept``: inline code) and how the transforms after this one read a string
    (``later``: a phrase to hold, as the model reads it)."""

    source: str
    to: str
    options: Any  # TextOptions (options.py, which imports this module)
    lowercase: frozenset[str] = frozenset()
    kept: Sequence[str] = ()
    later: Callable[[str], str] = field(default=lambda text: text)


Held = list[tuple[str, str]]  # (the span of the sentence, the phrase a translation holds for it)
ALTERNATIVES = "\x1f"  # between a held phrase's forms, any one of which holds it


class Transform:
    """A text feature: every method does nothing unless the feature overrides it."""

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    # whether it reads a text whose translation starts with a user's target prefix (a list
    # marker written in front would come before the prefix)
    with_prefix: ClassVar[bool] = True

    def read(self, text: str, context: Context) -> tuple[str, Any]:
        """``text`` as the model should read it, and a memo for ``write_back`` and ``held``."""
        return text, None

    def read_sentences(self, sentences: list[str], context: Context) -> list[str]:
        """The sentences of a text (cut after ``read``) as the model should read them."""
        return sentences

    def held(self, sentence: str, memo: Any, context: Context) -> Held:
        """The phrases a translation of ``sentence`` must hold, each with its span in it (a
        span is blanked out for the transforms after this one)."""
        return []

    def kept(self, memo: Any) -> Sequence[str]:
        """Spans of the translation that the write-backs after this one leave as written."""
        return ()

    def write_back(self, translation: str, memo: Any, context: Context) -> str:
        """``translation`` with the memo written back."""
        return translation

    def unplaced(self, translation: str, memo: Any, context: Context) -> Held:
        """What the text asked of its translation and ``translation`` (written back) misses:
        (source phrase, target phrase) pairs to report, not to drop silently."""
        return []

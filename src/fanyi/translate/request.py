"""One text to translate, with what its translation is held to: the target language, a target
prefix it starts with and phrases it holds. ``requests`` builds them from the Python API's
arguments (one prefix for all or one per text, phrases per text), checked in one place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Request:
    """A text and what its translation is held to (``to``: None detects it from the text;
    ``source_lang``: the text's language, None detects it; any code of either: ``zh-TW``)."""

    text: str
    to: str | None = None
    prefix: str | None = None  # the translation starts with it; the search continues from it
    constraints: tuple[str, ...] = ()  # phrases a translation of one sentence holds as written
    source_lang: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ValueError(f"a text must be a string, not {type(self.text).__name__}")
        for name in ("to", "source_lang"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a language code (a string) or None")
        if self.prefix is not None and not isinstance(self.prefix, str):
            raise ValueError("a target prefix must be a string or None")
        listed = isinstance(self.constraints, Sequence) and not isinstance(self.constraints, str)
        if not listed or not all(isinstance(p, str) for p in self.constraints):
            raise ValueError("constraints needs a list of phrases (strings) or None per text")
        object.__setattr__(self, "constraints", tuple(self.constraints))


def requests(
    texts: Sequence[str | Request],
    to: str | None = None,
    target_prefix: str | Sequence[str | None] | None = None,
    constraints: Sequence[Sequence[str] | None] | None = None,
    source_lang: str | None = None,
) -> list[Request]:
    """A request per text: a Request as given, a string with ``to`` and ``source_lang``, its
    target prefix (one for all, or one per text) and its ``constraints`` (per text, None for
    none)."""
    if isinstance(texts, str):  # its characters would each be a text
        raise TypeError("texts must be a list of strings (call the translator with one)")
    n = len(texts)
    prefixes = _per_text(target_prefix, n)
    phrases = _phrases(constraints, n)
    return [
        text if isinstance(text, Request) else Request(text, to, prefix, held, source_lang)  # type: ignore[arg-type]
        for text, prefix, held in zip(texts, prefixes, phrases, strict=True)
    ]


def _per_text(prefix: str | Sequence[str | None] | None, n: int) -> list[str | None]:
    """``n`` target prefixes: ``prefix`` for every text, or one per text."""
    if prefix is None or isinstance(prefix, str):
        return [prefix] * n
    if len(prefix) != n or not all(p is None or isinstance(p, str) for p in prefix):
        raise ValueError(f"target_prefix needs a string or None for each of the {n} texts")
    return list(prefix)


def _phrases(constraints: Sequence[Sequence[str] | None] | None, n: int) -> list[Sequence[str]]:
    """``n`` lists of phrases: none, or each text's own (None for none)."""
    if constraints is None:
        return [()] * n
    if isinstance(constraints, str) or len(constraints) != n:
        raise ValueError(f"constraints needs a list of phrases or None for each of the {n} texts")
    return [() if phrases is None else phrases for phrases in constraints]

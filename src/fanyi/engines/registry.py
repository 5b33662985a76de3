"""The seam between text and search: an :class:`Engine` decodes id lists and scores pairs.

``Translator`` (text in, text out) works over any engine; the registry :data:`ENGINES` names
them, for ``fanyi translate --engine NAME`` and ``Translator.load(…, engine=NAME)``:

- ``fanyi``: the model (or ensemble) searched by fanyi (``native.py``), its decoder steps
  compiled to C++ with ``compile: true``;
- ``ctranslate2``: a directory written by ``fanyi export --format ctranslate2`` (or by
  CTranslate2's own converters), searched by CTranslate2 (``engines/ctranslate2.py``);
- ``auto``: a fanyi model's free searches in CTranslate2 where it is installed (an export made
  once and cached), held searches and guarded runs in fanyi's (``engines/auto.py``).

An old name stays for one release as an alias (:data:`ALIASES`) that warns.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..decode.options import Dtype, LoadOptions, SearchOptions

if TYPE_CHECKING:  # the engines' names are read without torch (the flags' help)
    from torch import Tensor

    from ..decode.constraints import Spellings
    from ..decode.hypothesis import Hypothesis, StepHook
    from ..sections import Checkpoint
    from .native import NativeEngine


class Engine(Protocol):
    """What a translator needs of a loaded model: its configs, and two operations on ids."""

    name: str
    lexical_constraints: bool  # whether decode() can hold translations to target phrases
    checkpoint: Checkpoint  # the text settings, vocabularies, special ids and decoding defaults
    options: LoadOptions  # as loaded (dtype auto already chosen)

    def decode(
        self,
        sources: list[list[int]],
        options: SearchOptions,
        between_steps: StepHook,
        prefixes: list[list[int]] | None = None,
        constraints: list[list[Spellings]] | None = None,
    ) -> list[list[Hypothesis]]:
        """Per source (ids ending in EOS), its n-best hypotheses, best first, each starting with
        the source's target prefix (``prefixes``: target ids without EOS; none or [] for none)
        and holding each of its ``constraints`` (target phrases as ids; ``lexical_constraints``
        engines only)."""
        ...

    def log_likelihoods(
        self, sources: list[list[int]], targets: list[list[int]], between_batches: StepHook
    ) -> list[float]:
        """log P(target, EOS | source) of each pair."""
        ...

    def cross_attention(self, source: list[int], target: list[int]) -> Tensor:
        """Every layer's and head's cross-attention (N_dec x h x |target| x |source|), or a
        ValueError naming the engine that has it."""
        ...

    def with_dtype(self, dtype: Dtype) -> Engine:
        """This engine's model decoding in ``dtype`` (``fanyi tune --dtypes`` compares them), or
        a ValueError saying why it cannot."""
        ...


Loader = Callable[[Path, LoadOptions, SearchOptions], Engine]


def _native(path: Path, options: LoadOptions, search: SearchOptions) -> NativeEngine:
    from .native import NativeEngine

    return NativeEngine.load(path, options, search)


def _ctranslate2(path: Path, options: LoadOptions, search: SearchOptions) -> Engine:
    from .ctranslate2 import CTranslate2Engine  # ctranslate2 is optional

    return CTranslate2Engine.load(path, options, search)


def _auto(path: Path, options: LoadOptions, search: SearchOptions) -> Engine:
    from .auto import load_auto

    return load_auto(path, options, search, _native)


ENGINES: dict[str, Loader] = {
    "fanyi": _native,
    "ctranslate2": _ctranslate2,
    "auto": _auto,
}
# deprecated name → (the engine it loads, the LoadOptions it sets)
ALIASES: dict[str, tuple[str, dict[str, object]]] = {"compiled": ("fanyi", {"compile": True})}


def register(name: str, loader: Loader) -> None:
    """Make ``loader`` the engine called ``name``."""
    ENGINES[name] = loader


def load_engine(name: str, path: Path, options: LoadOptions, search: SearchOptions) -> Engine:
    """The engine ``name`` with the model of ``path`` loaded by ``options`` (``search``: the
    default search, which ``dtype: auto`` times)."""
    name, options = _unaliased(name, options)
    if name not in ENGINES:
        raise ValueError(f"no engine {name!r}: choose one of {', '.join(ENGINES)}")
    return ENGINES[name](path, options, search)


def _unaliased(name: str, options: LoadOptions) -> tuple[str, LoadOptions]:
    """The engine and options a deprecated engine ``name`` stands for, with a warning."""
    if name not in ALIASES:
        return name, options
    engine, changes = ALIASES[name]
    setting = ", ".join(f"{key}={value!r}" for key, value in changes.items())
    warnings.warn(
        f"engine {name!r} is deprecated and goes in the next release; use engine {engine!r} "
        f"with {setting}",
        DeprecationWarning,
        stacklevel=4,  # the caller of Translator.load
    )
    return engine, dataclasses.replace(options, **changes)  # type: ignore[arg-type]

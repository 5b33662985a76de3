"""The seam between text and search: an :class:`Engine` decodes id lists and scores pairs.

``Translator`` (text in, text out) works over any engine; the registry :data:`ENGINES` names
them, for ``fanyi translate --engine NAME`` and ``Translator.load(…, engine=NAME)``:

- ``fanyi``: the model (or ensemble) searched by fanyi (``native.py``);
- ``compiled``: the same with its decoder steps compiled to C++ (``compile: true``);
- ``ctranslate2``: a directory written by ``fanyi export --format ctranslate2`` (or by
  CTranslate2's own converters), searched by CTranslate2 (``engines/ctranslate2.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from torch import Tensor

from ..decode.constraints import Spellings
from ..decode.hypothesis import Hypothesis, StepHook
from ..decode.options import LoadOptions, SearchOptions
from ..sections import Checkpoint
from .native import NativeEngine, compiled


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


Loader = Callable[[Path, LoadOptions, SearchOptions], Engine]


def _ctranslate2(path: Path, options: LoadOptions, search: SearchOptions) -> Engine:
    from .ctranslate2 import CTranslate2Engine  # ctranslate2 is optional

    return CTranslate2Engine.load(path, options, search)


ENGINES: dict[str, Loader] = {
    "fanyi": NativeEngine.load,
    "compiled": compiled,
    "ctranslate2": _ctranslate2,
}


def register(name: str, loader: Loader) -> None:
    """Make ``loader`` the engine called ``name``."""
    ENGINES[name] = loader


def load_engine(name: str, path: Path, options: LoadOptions, search: SearchOptions) -> Engine:
    """The engine ``name`` with the model of ``path`` loaded by ``options`` (``search``: the
    default search, which ``dtype: auto`` times)."""
    if name not in ENGINES:
        raise ValueError(f"no engine {name!r}: choose one of {', '.join(ENGINES)}")
    return ENGINES[name](path, options, search)

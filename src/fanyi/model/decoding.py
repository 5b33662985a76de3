"""What a search decodes with: the decoder run one position at a time over its key/value cache
(§3.1: "auto-regressive, consuming the previously generated symbols as additional input"),
behind one protocol that a ``Transformer`` and an ensemble of them (``decode/ensemble.py``)
share. Searches, rescoring and the inference variants (``model/inference``) see a model only
through it, so that none of them asks which kind of model it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

from torch import Tensor, nn

from .config import ModelConfig
from .transformer import Transformer


class State(Protocol):
    """A model's incremental decoder state, one row per target hypothesis."""

    def select(self, index: Tensor) -> None:
        """Keep target rows ``index``: beams reordered, finished sources dropped."""

    def reorder(self, index: Tensor) -> None:
        """Reorder rows among the beams of each source only (no row moves to another source)."""


class OutputLayer(Protocol):
    """The pre-softmax linear map (§3.4): decoder outputs (... x d) → logits (... x V)."""

    def logits(self, x: Tensor, /) -> Tensor: ...


StateT = TypeVar("StateT", bound=State)


class Model(Protocol[StateT]):
    """A model a search decodes with: start on a batch of sources, then step through targets.

    ``config`` gives the special ids and ``max_len``; ``members`` the ``Transformer``s it combines
    (one for a single model); ``map`` applies a model → model transform (a dtype, int8,
    compiled steps) to each of them.
    """

    @property
    def config(self) -> ModelConfig: ...

    @property
    def generator(self) -> OutputLayer: ...

    def start_decoding(self, src: Tensor, beams: int = 1) -> StateT:
        """Encode ``src`` (b x s) once, for ``beams`` consecutive target rows per source."""
        ...

    def decode_step(
        self, tokens: Tensor, state: StateT, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor]]:
        """Feed the next target ids (b x n); decoder outputs (b x n x d) and, if asked, the
        encoder-decoder attention of each layer."""
        ...

    def members(self) -> list[Transformer]: ...

    def map(self, convert: Callable[[Transformer], Transformer]) -> Model[StateT]: ...

    def parameters(self, recurse: bool = True) -> Iterator[nn.Parameter]: ...

    def eval(self) -> Model[StateT]: ...

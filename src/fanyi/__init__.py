"""fanyi (翻译): the Transformer of "Attention Is All You Need", built to translate.

The public names are imported on first use (PEP 562), so that ``import fanyi`` does not import
torch: the command line can then answer Ctrl-C during its start-up with one line, not a
traceback.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from .decode.translator import Translator
    from .model import ModelConfig, Transformer, build_model

_HOMES = {
    "ModelConfig": ".model",
    "Transformer": ".model",
    "build_model": ".model",
    "Translator": ".decode.translator",
}
__all__ = ["ModelConfig", "Transformer", "Translator", "__version__", "build_model"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

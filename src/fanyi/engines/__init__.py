"""Engines: what searches a loaded model, behind one protocol and one registry.

registry.py     the Engine protocol (decode, log_likelihoods, cross_attention) and ENGINES
native.py       fanyi's own search over the model (or an ensemble), in batches of tokens
dtype.py        dtype auto: the fastest of fp32, bf16 and int8 on this host, timed; prepare_model
ctranslate2.py  a CTranslate2 directory searched by CTranslate2 (optional)
auto.py         CTranslate2 where it can, fanyi's search where only it can (held, guarded)
ct2_cache.py    a model's CTranslate2 export, made once and cached by hash
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .registry import ENGINES, Engine, load_engine, register

# Each public name's module, imported on first use (PEP 562): importing one light module of
# this package (its options, its configs) imports none of the others, nor torch.
_HOMES = {
    "ENGINES": ".registry",
    "Engine": ".registry",
    "load_engine": ".registry",
    "register": ".registry",
}
__all__ = ["ENGINES", "Engine", "load_engine", "register"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

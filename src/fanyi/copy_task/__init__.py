"""The copy task (The Annotated Transformer's first example): learn to output the input.

A small model sees random symbol sequences and must reproduce them. It exercises every part of
the model, the label-smoothed loss, the training step of ``fanyi train`` (Noam rate, clipping,
Adam) and greedy decoding in half a minute of CPU.

config.py  CopyTaskConfig: the sequences, the training and the model
task.py    random batches, training, exact-match rate and the demo
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import CopyTaskConfig
    from .task import exact_match_rate, run_demo, train_copy_model

# Each public name's module, imported on first use (PEP 562): the config imports no torch.
_HOMES = {
    "CopyTaskConfig": ".config",
    "exact_match_rate": ".task",
    "run_demo": ".task",
    "train_copy_model": ".task",
}
__all__ = ["CopyTaskConfig", "exact_match_rate", "run_demo", "train_copy_model"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

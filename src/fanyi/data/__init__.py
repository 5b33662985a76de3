"""What training and translation read: a data directory's vocabularies, manifest and token
shards, and the batches made of them.

``read_manifest`` reads a data directory's typed ``Manifest``; ``load_vocabs`` its vocabularies
and ``load_split`` memory-maps a split's token shards; ``TokenBatchSampler`` and ``collate`` turn
a split into ``Batch`` tensors. The build that writes a data directory (``prepare``: download,
read, clean, split, SentencePiece, shards) is :mod:`fanyi.data.build`, which this side never
imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .batching import (
        Batch,
        MappedDataset,
        ParallelDataset,
        TokenBatchSampler,
        collate,
        load_split,
        load_vocabs,
        padding_fraction,
    )
    from .config import DataConfig
    from .manifest import Manifest, read_manifest
    from .vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Vocab

# Each public name's module, imported on first use (PEP 562): importing one light module of
# this package (its options, its configs) imports none of the others, nor torch.
_HOMES = {
    "Batch": ".batching",
    "MappedDataset": ".batching",
    "ParallelDataset": ".batching",
    "TokenBatchSampler": ".batching",
    "collate": ".batching",
    "load_split": ".batching",
    "load_vocabs": ".batching",
    "padding_fraction": ".batching",
    "DataConfig": ".config",
    "Manifest": ".manifest",
    "read_manifest": ".manifest",
    "BOS_ID": ".vocab",
    "EOS_ID": ".vocab",
    "PAD_ID": ".vocab",
    "UNK_ID": ".vocab",
    "Vocab": ".vocab",
}
__all__ = [
    "BOS_ID",
    "EOS_ID",
    "PAD_ID",
    "UNK_ID",
    "Batch",
    "DataConfig",
    "Manifest",
    "MappedDataset",
    "ParallelDataset",
    "TokenBatchSampler",
    "Vocab",
    "collate",
    "load_split",
    "load_vocabs",
    "padding_fraction",
    "read_manifest",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

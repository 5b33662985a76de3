"""What training and translation read: a data directory's vocabularies, manifest and token
shards, and the batches made of them.

``read_manifest`` reads a data directory's typed ``Manifest``; ``load_vocabs`` its vocabularies
and ``load_split`` memory-maps a split's token shards; ``TokenBatchSampler`` and ``collate`` turn
a split into ``Batch`` tensors. The build that writes a data directory (``prepare``: download,
read, clean, split, SentencePiece, shards) is :mod:`fanyi.data.build`, which this side never
imports.
"""

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

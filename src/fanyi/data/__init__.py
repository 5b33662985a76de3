"""Corpus text → cleaned, leak-free splits → SentencePiece ids → token batches.

``prepare(DataConfig(...))`` writes a data directory (streaming: any corpus size in bounded
memory) and returns its ``Manifest``; ``load_vocabs`` reads its vocabularies and ``load_split``
memory-maps a split's token shards; ``TokenBatchSampler`` and ``collate`` turn a split into
``Batch`` tensors.
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
from .corpus import MalformedLineError, read_lines
from .manifest import Manifest, read_manifest
from .prepare import prepare
from .vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Vocab

__all__ = [
    "BOS_ID",
    "EOS_ID",
    "PAD_ID",
    "UNK_ID",
    "Batch",
    "DataConfig",
    "MalformedLineError",
    "Manifest",
    "MappedDataset",
    "ParallelDataset",
    "TokenBatchSampler",
    "Vocab",
    "collate",
    "load_split",
    "load_vocabs",
    "padding_fraction",
    "prepare",
    "read_lines",
    "read_manifest",
]

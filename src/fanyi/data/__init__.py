"""Corpus text → cleaned, leak-free splits → SentencePiece ids → token batches.

``prepare(DataConfig(...))`` writes a data directory and returns its ``Manifest``;
``load_vocabs`` and ``load_split`` read it back; ``TokenBatchSampler`` and ``collate`` turn a
split into ``Batch`` tensors.
"""

from .batching import (
    Batch,
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

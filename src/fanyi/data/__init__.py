"""Corpus text → cleaned, leak-free splits → SentencePiece ids → token batches.

``prepare(DataConfig(...))`` writes a data directory; ``load_vocabs`` and ``load_split`` read it
back; ``TokenBatchSampler`` and ``collate`` turn a split into ``Batch`` tensors.
"""

from .batching import (
    Batch,
    ParallelDataset,
    TokenBatchSampler,
    collate,
    load_split,
    load_vocabs,
    make_loader,
    padding_fraction,
)
from .config import DataConfig
from .corpus import MalformedLineError, read_lines
from .normalize import Normalizer
from .prepare import prepare
from .vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Vocab, add_tag, lang_tag

__all__ = [
    "BOS_ID",
    "EOS_ID",
    "PAD_ID",
    "UNK_ID",
    "Batch",
    "DataConfig",
    "MalformedLineError",
    "Normalizer",
    "ParallelDataset",
    "TokenBatchSampler",
    "Vocab",
    "add_tag",
    "collate",
    "lang_tag",
    "load_split",
    "load_vocabs",
    "make_loader",
    "padding_fraction",
    "prepare",
    "read_lines",
]

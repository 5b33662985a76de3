"""What ``fanyi prepare`` and ``fanyi data`` write: corpus text → cleaned, leak-free splits →
SentencePiece ids → token shards, and the corpora fetched or built on the way.

``prepare(DataConfig(...))`` writes a data directory (streaming: any corpus size in bounded
memory) and returns its ``Manifest``. Downloads (``download``), real-text sources (``sources``,
``opus``, ``cedict``, ``hsk``, gettext ``po``), readers and cleaning (``corpus``, ``spool``),
the leak-free split (``split``), augmentation, SentencePiece training (``subword``) and the
shard encoder (``encode``) live here; :mod:`fanyi.data` holds what training and translation
read, and never imports this package.
"""

from .corpus import MalformedLineError, read_lines
from .prepare import prepare

__all__ = ["MalformedLineError", "prepare", "read_lines"]

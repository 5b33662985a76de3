"""``DataConfig``: every setting of ``fanyi prepare``, one YAML file, every key a flag."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

DATA_ENV = "FANYI_DATA"
DEFAULT_DATA_ROOT = "../shared/data"  # the shared corpora, relative to the repository root


@dataclass
class DataConfig:
    """Where a parallel corpus is, how to clean and split it, and the vocabulary to train.

    Paths may use ``${FANYI_DATA}`` (root of the corpora folder; default ``../shared/data``,
    relative to the working directory), ``$HOME`` and ``~``.
    """

    # --- input ---
    format: Literal["tsv", "aligned"] = "tsv"
    train: str = "${FANYI_DATA}/tatoeba-cmn-eng/cmn.txt"  # tsv: a file; aligned: prefix.{lang}
    dev: str | None = None  # None: split dev and test off `train` without leakage
    test: str | None = None
    columns: dict[str, int] = field(default_factory=lambda: {"en": 0, "zh": 1})  # tsv: lang → col
    num_columns: int | None = 3  # tsv: lines with another column count are malformed
    limit: int | None = None  # read only the first `limit` lines of each input (for slices)
    # More corpora in the same format, for the train split only: cleaned like `train`, and every
    # pair sharing a sentence with dev or test dropped, so the held-out splits stay unseen.
    extra_train: list[str] = field(default_factory=list)
    # How often each train corpus's pairs appear ("train" or an extra_train path as written):
    # 2.0 twice, 0.5 a seeded half; the rest once. Keeps a small corpus from being drowned.
    weights: dict[str, float] = field(default_factory=dict)
    # Held-out sets of other sources (the same format): no train pair may share a sentence
    # with them, on either side, so that each source's dev and test stay unseen.
    held_out: list[str] = field(default_factory=list)
    # Extra train corpora that teach one direction only: path → the language translated into.
    # For back-translated text (Sennrich, Haddow & Birch 2016): its synthetic side is only ever
    # a source, never a target the model learns to write.
    one_way: dict[str, str] = field(default_factory=dict)
    # --- direction ---
    src_lang: str = "zh"
    tgt_lang: str = "en"
    bidirectional: bool = False  # both directions in one data set (needs lang_tags, joint_vocab)
    lang_tags: bool = False  # prepend "<2xx> " (the target language) to every source line
    # --- cleaning ---
    nfkc: bool = True  # NFKC; Chinese sides keep full-width punctuation (see normalize.py)
    t2s: bool = True  # Traditional → Simplified on Chinese sides (OpenCC)
    min_len: int = 1  # length in units: one per Han character, one per other word
    max_len: int = 200
    max_ratio: float = 9.0  # longer side / shorter side, in units
    dedup: bool = True  # drop exact duplicate pairs (after normalisation)
    # --- split ---
    dev_size: int = 1000  # pairs, when dev/test are split off `train`
    test_size: int = 1000
    seed: int = 1234
    # --- augmentation of the train split (Nguyen, Murray & Chiang 2021) ---
    # Add fraction × |train| pairs, each 2..concat_max random train pairs joined, so the model
    # also learns inputs of several sentences. 0: none.
    concat_augment: float = 0.0
    concat_max: int = 3
    # --- vocabulary (SentencePiece, trained on the train split only) ---
    # An existing SentencePiece model to use instead of training one (joint vocabularies only):
    # continuing from a model (`TrainConfig.init_from`) needs its vocabulary.
    vocab_from: str | None = None
    vocab_size: int = 8000  # per model; an upper bound (SentencePiece's soft limit)
    model_type: Literal["unigram", "bpe"] = "unigram"
    joint_vocab: bool = True  # one model for source and target
    character_coverage: float = 0.9995  # below 1 so rare Han characters fall back to bytes
    spm_threads: int = 1
    # SentencePiece trains on this many train lines, drawn with `seed` (all when train has
    # fewer): it holds its input in memory, and a million sentences is plenty for a vocabulary.
    input_sentence_size: int = 1_000_000
    # --- output ---
    out_dir: str = "data/tatoeba-zh-en"
    shard_lines: int = 1_000_000  # lines per token shard (the ids files training memory-maps)

    def __post_init__(self) -> None:
        if self.src_lang == self.tgt_lang:
            raise ValueError(f"src_lang and tgt_lang are both {self.src_lang!r}")
        if self.bidirectional and not (self.lang_tags and self.joint_vocab):
            raise ValueError("bidirectional needs lang_tags: true and joint_vocab: true")
        if self.format == "tsv":
            missing = {self.src_lang, self.tgt_lang} - set(self.columns)
            if missing:
                raise ValueError(f"columns has no column for {', '.join(sorted(missing))}")
        if (self.dev is None) != (self.test is None):
            raise ValueError("give both dev and test, or neither (then they are split off train)")
        if not 0 < self.min_len <= self.max_len:
            raise ValueError(f"need 0 < min_len <= max_len, got {self.min_len}, {self.max_len}")
        if self.max_ratio < 1:
            raise ValueError(f"max_ratio must be at least 1, got {self.max_ratio}")
        if self.concat_augment < 0 or self.concat_max < 2:
            raise ValueError("need concat_augment >= 0 and concat_max >= 2")
        if self.input_sentence_size < 1 or self.shard_lines < 1:
            raise ValueError("need input_sentence_size >= 1 and shard_lines >= 1")
        unknown = set(self.weights) - {"train", *self.extra_train}
        if unknown:
            raise ValueError(f"weights: {', '.join(sorted(unknown))} is not train or extra_train")
        if not all(0 < w < 1000 for w in self.weights.values()):  # nan fails too
            raise ValueError("weights must be positive numbers below 1000")
        self._check_one_way()
        if self.vocab_from is not None and not self.joint_vocab:
            raise ValueError("vocab_from needs joint_vocab: true (one model for both sides)")

    def _check_one_way(self) -> None:
        unknown = set(self.one_way) - set(self.extra_train)
        if unknown:
            raise ValueError(f"one_way: {', '.join(sorted(unknown))} is not an extra_train corpus")
        targets = set(self.langs) if self.bidirectional else {self.tgt_lang}
        wrong = {lang for lang in self.one_way.values() if lang not in targets}
        if wrong:
            raise ValueError(f"one_way: {', '.join(sorted(wrong))} is not a target language here")

    @property
    def langs(self) -> tuple[str, str]:
        """(source, target) languages of the base direction."""
        return self.src_lang, self.tgt_lang


def data_root() -> str:
    """The corpora folder: ``$FANYI_DATA`` if set, else ``../shared/data``."""
    return os.environ.get(DATA_ENV) or DEFAULT_DATA_ROOT


def resolve_path(path: str) -> Path:
    """Expand ``${FANYI_DATA}`` (with its default), other environment variables and ``~``."""
    path = path.replace("${FANYI_DATA}", data_root()).replace("$FANYI_DATA", data_root())
    return Path(os.path.expanduser(os.path.expandvars(path)))

"""A data directory's vocabulary: SentencePiece trained on a seeded sample of train, or copied.

SentencePiece holds every sentence it trains on in memory, so a corpus of millions of lines
trains on ``input_sentence_size`` of them, drawn with the data's ``seed``; a train split that
has fewer lines trains on all of them in order, as it always did. The sample is drawn here, not
by SentencePiece's own ``shuffle_input_sentence``: its generator is not reproducible from
Python (``set_random_generator_seed`` gave different vocabularies run to run).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..lang import lang_tag
from .config import DataConfig, resolve_path
from .manifest import JOINT_SPM, SIDES, SRC_SPM, TGT_SPM, VocabInfo, split_file
from .vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Vocab, train_sentencepiece

SAMPLE_FILE = ".spm-sample.txt"  # in the data directory while SentencePiece trains


def vocab_tags(config: DataConfig) -> list[str]:
    """The ``<2xx>`` tags of the directions written: the target languages."""
    if not config.lang_tags:
        return []
    langs = config.langs if config.bidirectional else (config.tgt_lang,)
    return sorted(lang_tag(lang) for lang in langs)


def vocab_source(config: DataConfig) -> Path:
    """The SentencePiece model file ``vocab_from`` names (a file, or a model directory's)."""
    source = resolve_path(config.vocab_from or "")
    return source / f"{JOINT_SPM}.model" if source.is_dir() else source


def _copy_vocab(out: Path, config: DataConfig, tags: list[str]) -> Path:
    """``vocab_from``'s SentencePiece model as ``out/spm.model``, checked to hold ``tags``."""
    source = vocab_source(config)
    if not source.is_file():
        raise FileNotFoundError(f"vocab_from: {source} is not a SentencePiece model")
    missing = set(tags) - set(Vocab(source).tags)
    if missing:
        raise ValueError(f"vocab_from: {source} lacks the tags {', '.join(sorted(missing))}")
    shutil.copyfile(source, out / f"{JOINT_SPM}.model")
    if source.with_suffix(".vocab").is_file():
        shutil.copyfile(source.with_suffix(".vocab"), out / f"{JOINT_SPM}.vocab")
    return out / f"{JOINT_SPM}.model"


def sample_lines(files: Sequence[Path], size: int, seed: int, out: Path) -> list[Path]:
    """``files`` themselves when they hold at most ``size`` lines; else a file of ``size`` of
    their lines drawn with ``seed`` (in file order)."""
    counts = []
    for path in files:
        with path.open("rb") as f:
            counts.append(sum(1 for _ in f))
    if sum(counts) <= size:
        return list(files)
    chosen = np.zeros(sum(counts), dtype=bool)
    chosen[np.random.default_rng(seed).choice(sum(counts), size, replace=False)] = True
    with out.open("w", encoding="utf-8", newline="\n") as sample:
        start = 0
        for path, count in zip(files, counts, strict=True):
            with path.open(encoding="utf-8", newline="\n") as f:
                keep = chosen[start : start + count].tolist()
                sample.writelines(line for line, kept in zip(f, keep, strict=True) if kept)
            start += count
    return [out]


def train_vocab(out: Path, config: DataConfig) -> VocabInfo:
    """Train the SentencePiece model(s) on train only (or copy ``vocab_from``); their manifest
    entry."""
    tags = vocab_tags(config)
    if config.vocab_from is not None:
        model = _copy_vocab(out, config, tags)
        return _vocab_entry(config, tags, model, model)
    train = tuple(out / split_file("train", side) for side in SIDES)
    specs = (
        {JOINT_SPM: (train, tags)}
        if config.joint_vocab
        else {SRC_SPM: (train[:1], tags), TGT_SPM: (train[1:], [])}
    )
    models = {}
    for name, (files, symbols) in specs.items():
        sample = sample_lines(files, config.input_sentence_size, config.seed, out / SAMPLE_FILE)
        models[name] = train_sentencepiece(
            sample,
            out / name,
            config.vocab_size,
            config.model_type,
            config.character_coverage,
            symbols,
            config.spm_threads,
        )
        (out / SAMPLE_FILE).unlink(missing_ok=True)
    joint = config.joint_vocab
    src, tgt = (models[JOINT_SPM],) * 2 if joint else (models[SRC_SPM], models[TGT_SPM])
    return _vocab_entry(config, tags, src, tgt)


def _vocab_entry(config: DataConfig, tags: list[str], src: Path, tgt: Path) -> VocabInfo:
    """The manifest's description of the vocabularies."""
    return VocabInfo(
        joint=config.joint_vocab,
        src_model=src.name,
        tgt_model=tgt.name,
        src_size=len(Vocab(src)),
        tgt_size=len(Vocab(tgt)),
        tags=tags,
        pad_id=PAD_ID,
        unk_id=UNK_ID,
        bos_id=BOS_ID,
        eos_id=EOS_ID,
    )

"""A data directory's vocabulary: SentencePiece trained on a seeded sample of train, or copied.

SentencePiece holds every sentence it trains on in memory, so a corpus of millions of lines
trains on ``input_sentence_size`` of them, drawn with the data's ``seed``; a train split that
has fewer lines trains on all of them in order, as it always did. The sample is drawn here, not
by SentencePiece's own ``shuffle_input_sentence``: its generator is not reproducible from
Python (``set_random_generator_seed`` gave different vocabularies run to run).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import sentencepiece as spm

from ...filenames import TRUECASE_FILE
from ...text.lang import lang_tag, split_tag
from ...text.recase import write_table
from ..config import DataConfig, resolve_path
from ..manifest import JOINT_SPM, SIDES, SRC_SPM, TGT_SPM, VocabInfo, split_file
from ..vocab import BOS, BOS_ID, EOS, EOS_ID, PAD, PAD_ID, UNK, UNK_ID, Vocab

SAMPLE_FILE = ".spm-sample.txt"  # in the data directory while SentencePiece trains

HANGING_VERSIONS = ("0.2.2",)  # SentencePieceTrainer.train(sentence_iterator=...) never returns


def _untagged_lines(files: Sequence[Path]) -> Iterator[str]:
    """Lines of ``files`` without their tags (tags are added to the vocabulary as symbols)."""
    for path in files:
        with path.open(encoding="utf-8") as f:
            for line in f:
                yield split_tag(line.rstrip("\n"))[1]


def train_sentencepiece(
    files: Sequence[Path],
    model_prefix: Path,
    vocab_size: int,
    model_type: str = "unigram",
    character_coverage: float = 0.9995,
    tags: Sequence[str] = (),
    threads: int = 1,
) -> Path:
    """Train a SentencePiece model on the lines of ``files``; return ``<prefix>.model``."""
    if spm.__version__ in HANGING_VERSIONS:
        raise ValueError(
            f"sentencepiece {spm.__version__} never returns from training on a sentence "
            "iterator: pip install 'sentencepiece>=0.2.3'"
        )
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=_untagged_lines(files),
            model_prefix=str(model_prefix),
            vocab_size=vocab_size,
            model_type=model_type,
            character_coverage=character_coverage,
            byte_fallback=True,
            normalization_rule_name="identity",
            hard_vocab_limit=False,
            pad_id=PAD_ID,
            unk_id=UNK_ID,
            bos_id=BOS_ID,
            eos_id=EOS_ID,
            pad_piece=PAD,
            unk_piece=UNK,
            bos_piece=BOS,
            eos_piece=EOS,
            user_defined_symbols=list(tags),
            num_threads=threads,
            minloglevel=2,
        )
    except RuntimeError as error:  # e.g. vocab_size below the characters it must cover
        raise ValueError(f"SentencePiece training failed: {error}") from None
    return model_prefix.with_name(model_prefix.name + ".model")


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
    """Train the SentencePiece model(s) on train only (or copy ``vocab_from``), and write the
    truecaser's table of train's words beside them; their manifest entry."""
    tags = vocab_tags(config)
    train = tuple(out / split_file("train", side) for side in SIDES)
    write_table(out / TRUECASE_FILE, train)  # the vocabulary's companion (recase.py)
    if config.vocab_from is not None:
        model = _copy_vocab(out, config, tags)
        return _vocab_entry(config, tags, model, model)
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

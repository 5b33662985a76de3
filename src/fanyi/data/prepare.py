"""``prepare(config) -> manifest``: a parallel corpus → a data directory ready for training.

The directory holds ``{train,dev,test}.{src,tgt}`` (cleaned, normalised text, one sentence a
line, sources tagged ``<2xx>`` when asked), the SentencePiece model(s) trained on train only, and
``manifest.json``: the config, the sha256 of every input and output, the cleaning report and the
vocabulary's special ids. The manifest is written last; when it already records the same config
and inputs and every output is intact, ``prepare`` does nothing.
"""

from __future__ import annotations

import logging
import os
import platform
import shutil
from collections.abc import Iterator
from pathlib import Path

import opencc
import sentencepiece

from .._version import __version__
from ..lang import Normalizer, add_tag, lang_tag
from .augment import concatenations
from .config import DataConfig, resolve_path
from .corpus import Cleaner, Pair, Record, Report, clean, drop_overlap, read_aligned, read_tsv
from .download import sha256_file
from .manifest import (
    JOINT_SPM,
    MANIFEST_FILE,
    SIDES,
    SRC_SPM,
    TGT_SPM,
    Manifest,
    VocabInfo,
    read_manifest,
    split_file,
)
from .split import SPLITS, leak_free_split
from .vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Vocab, train_sentencepiece

log = logging.getLogger(__name__)


def input_files(config: DataConfig) -> dict[str, Path]:
    """Every input file by role: ``train`` (tsv) or ``train.de`` and ``train.en`` (aligned);
    the extra train corpora as ``extra1``, ``extra2``, …"""
    prefixes = {"train": config.train, "dev": config.dev, "test": config.test}
    prefixes |= {f"extra{i}": path for i, path in enumerate(config.extra_train, 1)}
    files = {}
    for split, prefix in prefixes.items():
        if prefix is None:
            continue
        if config.format == "tsv":
            files[split] = resolve_path(prefix)
        else:
            for lang in config.langs:
                files[f"{split}.{lang}"] = resolve_path(f"{prefix}.{lang}")
    return files


def _records(config: DataConfig, split: str) -> Iterator[Record]:
    """The records of one input split, read in the base direction."""
    files = input_files(config)
    if config.format == "tsv":
        return read_tsv(
            files[split], config.columns, config.langs, config.num_columns, config.limit
        )
    src, tgt = (files[f"{split}.{lang}"] for lang in config.langs)
    return read_aligned(src, tgt, config.limit)


def _cleaner(config: DataConfig) -> Cleaner:
    src, tgt = (Normalizer(lang, config.nfkc, config.t2s) for lang in config.langs)
    return Cleaner(src, tgt, config.min_len, config.max_len, config.max_ratio, config.dedup)


def clean_and_split(
    config: DataConfig, strict: bool = False
) -> tuple[dict[str, list[Pair]], dict[str, Report]]:
    """Pairs of each split and the cleaning report of each input (``corpus`` if split here)."""
    cleaner = _cleaner(config)
    if config.dev is None:
        pairs, report = clean(_records(config, "train"), cleaner, strict)
        chosen = leak_free_split(pairs, config.dev_size, config.test_size, config.seed)
        return {name: [pairs[i] for i in chosen[name]] for name in SPLITS}, {"corpus": report}
    splits, reports = {}, {}
    for name in SPLITS:
        splits[name], reports[name] = clean(_records(config, name), cleaner, strict)
    splits["train"] = drop_overlap(
        splits["train"], splits["dev"] + splits["test"], reports["train"]
    )
    return splits, reports


def add_extra_train(
    config: DataConfig, splits: dict[str, list[Pair]], reports: dict[str, Report], strict: bool
) -> None:
    """Append the cleaned ``extra_train`` corpora to train, without dev/test sentences or pairs
    train already has; each corpus gets its own report (``extra1``, …)."""
    cleaner, held_out = _cleaner(config), splits["dev"] + splits["test"]
    seen = set(splits["train"])
    for i in range(1, len(config.extra_train) + 1):
        name = f"extra{i}"
        pairs, report = clean(_records(config, name), cleaner, strict)
        pairs = drop_overlap(pairs, held_out, report)
        new = [pair for pair in pairs if pair not in seen]
        report.drop("duplicate", len(pairs) - len(new))
        seen.update(new)
        splits["train"] = splits["train"] + new
        reports[name] = report


def directed_lines(config: DataConfig, pairs: list[Pair]) -> tuple[list[str], list[str]]:
    """Source and target lines of ``pairs``: both directions if bidirectional, tags if asked."""
    directions = [(False, config.tgt_lang)]
    if config.bidirectional:
        directions.append((True, config.src_lang))
    src_lines, tgt_lines = [], []
    for swap, target_lang in directions:
        for a, b in pairs:
            src, tgt = (b, a) if swap else (a, b)
            src_lines.append(add_tag(src, target_lang) if config.lang_tags else src)
            tgt_lines.append(tgt)
    return src_lines, tgt_lines


def _write_lines(path: Path, lines: list[str]) -> None:
    """Write ``lines`` through a temporary file, so a crash never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    os.replace(tmp, path)


def _tags(config: DataConfig) -> list[str]:
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


def _train_vocab(out: Path, config: DataConfig) -> VocabInfo:
    """Train the SentencePiece model(s) on train only (or copy ``vocab_from``); their manifest
    entry."""
    tags = _tags(config)
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
        models[name] = train_sentencepiece(
            files,
            out / name,
            config.vocab_size,
            config.model_type,
            config.character_coverage,
            symbols,
            config.spm_threads,
        )
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


def _outputs(out: Path, vocab: VocabInfo) -> dict[str, str]:
    """sha256 of every output file, by name."""
    names = [split_file(split, side) for split in SPLITS for side in SIDES]
    models = {vocab.src_model, vocab.tgt_model}
    names += sorted(models | {Path(m).with_suffix(".vocab").name for m in models})
    return {name: sha256_file(out / name) for name in names if (out / name).is_file()}


def _up_to_date(out: Path, config: DataConfig, inputs: dict[str, str]) -> Manifest | None:
    """The existing manifest if it records this config and these inputs, and outputs are intact."""
    if not (out / MANIFEST_FILE).is_file():
        return None
    try:
        manifest = read_manifest(out)
    except (ValueError, TypeError, KeyError):  # written by another version of fanyi
        return None
    if manifest.config != config or manifest.inputs != inputs:
        return None
    for name, digest in manifest.outputs.items():
        if not (out / name).is_file() or sha256_file(out / name) != digest:
            return None
    return manifest


def _versions() -> dict[str, str]:
    return {
        "fanyi": __version__,
        "python": platform.python_version(),
        "sentencepiece": sentencepiece.__version__,
        "opencc": getattr(opencc, "__version__", "unknown"),
    }


def _inputs(config: DataConfig) -> tuple[dict[str, Path], dict[str, str]]:
    """Every input file by role, and its sha256 (``vocab_from``'s model included)."""
    files = input_files(config)
    for path in files.values():
        if not path.is_file():
            raise FileNotFoundError(f"input {path} not found (is ${{FANYI_DATA}} set?)")
    inputs = {role: sha256_file(path) for role, path in files.items()}
    if config.vocab_from is not None and vocab_source(config).is_file():
        inputs["vocab_from"] = sha256_file(vocab_source(config))
    return files, inputs


def _grow_train(
    config: DataConfig, splits: dict[str, list[Pair]], reports: dict[str, Report], strict: bool
) -> int:
    """Add the extra corpora and the concatenated pairs to train; how many were concatenated."""
    add_extra_train(config, splits, reports, strict)
    real_train, cleaner = len(splits["train"]), _cleaner(config)
    joined = concatenations(
        splits["train"], config.concat_augment, config.concat_max, config.seed, config.langs
    )
    splits["train"] = splits["train"] + [pair for pair in joined if not cleaner.reject(pair)]
    return len(splits["train"]) - real_train


def prepare(config: DataConfig, strict: bool = False) -> Manifest:
    """Clean, split and encode ``config``'s corpus into ``config.out_dir``; return the manifest.

    ``strict`` raises :class:`~fanyi.data.corpus.MalformedLineError` on the first malformed
    line instead of counting it.
    """
    out = resolve_path(config.out_dir)
    files, inputs = _inputs(config)
    existing = _up_to_date(out, config, inputs)
    if existing is not None:
        log.info("%s is up to date (same config and inputs): nothing to do", out)
        return existing
    splits, reports = clean_and_split(config, strict)
    concatenated = _grow_train(config, splits, reports, strict)
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST_FILE).unlink(missing_ok=True)
    for name, pairs in splits.items():
        for side, lines in zip(SIDES, directed_lines(config, pairs), strict=True):
            _write_lines(out / split_file(name, side), lines)
    vocab = _train_vocab(out, config)
    directions = 2 if config.bidirectional else 1
    manifest = Manifest(
        config=config,
        inputs=inputs,
        input_paths={role: str(path) for role, path in files.items()},
        report={name: report.to_dict() for name, report in reports.items()},
        pairs={name: len(pairs) for name, pairs in splits.items()},
        concatenated_pairs=concatenated,
        lines={name: len(pairs) * directions for name, pairs in splits.items()},
        vocab=vocab,
        outputs=_outputs(out, vocab),
        versions=_versions(),
    )
    manifest.save(out)
    log.info("wrote %s", out)
    return manifest

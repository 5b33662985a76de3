"""``prepare(config) -> manifest``: a parallel corpus → a data directory ready for training.

The directory holds ``{train,dev,test}.{src,tgt}`` (cleaned, normalised text, one sentence a
line, sources tagged ``<2xx>`` when asked; for people to read), the SentencePiece model(s)
trained on train only, the token shards of every split (their ids, memory-mapped by training:
:mod:`fanyi.data.shards`) and ``manifest.json``: the config, the sha256 of every input and
output, the cleaning report and the vocabulary's special ids. Every step streams, so memory is
bounded however large the corpus (:mod:`fanyi.data.build.assemble`). The manifest is written last;
when it already records the same config and inputs and every output is intact, ``prepare``
does nothing.
"""

from __future__ import annotations

import logging
import os
import platform
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import opencc
import sentencepiece

from ..._version import __version__
from ...outputs import claim_dir, mark
from ...text.lang import add_tag
from ..config import DataConfig, resolve_path
from ..manifest import (
    MANIFEST_FILE,
    SIDES,
    Manifest,
    VocabInfo,
    read_manifest,
    sha256_file,
    split_file,
)
from ..shards import SHARD_INDEX, ShardIndex
from .assemble import Assembled, assemble, input_files, pairs_of
from .corpus import Pair, Report
from .encode import encode_splits
from .split import SPLITS
from .subword import train_vocab, vocab_source

log = logging.getLogger(__name__)


def directed_lines(config: DataConfig, pairs: Iterable[Pair], swap: bool) -> Iterable[Pair]:
    """(source line, target line) of ``pairs`` in one direction, tagged if asked."""
    target_lang = config.src_lang if swap else config.tgt_lang
    for a, b in pairs:
        src, tgt = (b, a) if swap else (a, b)
        yield (add_tag(src, target_lang) if config.lang_tags else src), tgt


def write_split(config: DataConfig, out: Path, split: str, assembled: Assembled) -> int:
    """Write ``{split}.src`` and ``{split}.tgt``: every pair, then (bidirectional) every pair
    the other way, a ``one_way`` corpus's pairs only into its language; through temporary
    files, so a crash never leaves half a file. Lines written."""
    paths = [out / split_file(split, side) for side in SIDES]
    temporary = [path.with_name(path.name + ".tmp") for path in paths]
    count = 0
    with (
        temporary[0].open("w", encoding="utf-8") as src,
        temporary[1].open("w", encoding="utf-8") as tgt,
    ):
        for swap in (False, True) if config.bidirectional else (False,):
            files = assembled.directions(split, config.src_lang if swap else config.tgt_lang)
            for src_line, tgt_line in directed_lines(config, pairs_of(files), swap):
                src.write(f"{src_line}\n")
                tgt.write(f"{tgt_line}\n")
                count += 1
    for tmp, path in zip(temporary, paths, strict=True):
        os.replace(tmp, path)
    return count


def clean_and_split(
    config: DataConfig, strict: bool = False, workers: int = 1
) -> tuple[dict[str, list[Pair]], dict[str, Report]]:
    """Every split's pairs as lists, and the reports: for tools that look at a small corpus."""
    with tempfile.TemporaryDirectory(prefix="fanyi-split-") as folder:
        assembled = assemble(config, Path(folder), strict, workers)
        splits = {name: list(pairs_of(assembled.files[name])) for name in SPLITS}
    return splits, assembled.reports


def _outputs(out: Path, vocab: VocabInfo, shards: ShardIndex) -> dict[str, str]:
    """sha256 of every output file, by name."""
    names = [split_file(split, side) for split in SPLITS for side in SIDES]
    models = {vocab.src_model, vocab.tgt_model}
    names += sorted(models | {Path(m).with_suffix(".vocab").name for m in models})
    names += shards.all_files(SIDES)
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
    if SHARD_INDEX not in manifest.outputs:  # prepared before token shards
        return None
    for name, digest in manifest.outputs.items():
        if not (out / name).is_file() or sha256_file(out / name) != digest:
            return None
    return manifest


def _versions() -> dict[str, str]:
    return {
        "fanyi": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
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


def prepare(
    config: DataConfig, strict: bool = False, workers: int = 1, overwrite: bool = True
) -> Manifest:
    """Clean, split and encode ``config``'s corpus into ``config.out_dir``; return the manifest.

    ``strict`` raises :class:`~fanyi.data.build.corpus.MalformedLineError` on the first malformed
    line instead of counting it. ``workers`` processes clean and encode (the output does not
    depend on how many). A folder that is not up to date is rebuilt only when fanyi wrote it
    and ``overwrite`` is given (``outputs.claim_dir``); one that holds anything else never is.
    """
    out = resolve_path(config.out_dir)
    files, inputs = _inputs(config)
    existing = _up_to_date(out, config, inputs)
    if existing is not None:
        log.info("%s is up to date (same config and inputs): nothing to do", out)
        return existing
    _claim(out, overwrite)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=out, prefix=".prepare-") as folder:
        assembled = assemble(config, Path(folder), strict, workers)
        lines = {name: write_split(config, out, name, assembled) for name in SPLITS}
    log.info("cleaned and split: %s pairs (%.0f s)", assembled.pairs, time.perf_counter() - start)
    vocab = train_vocab(out, config)
    log.info("vocabulary: %d pieces (%.0f s)", vocab.src_size, time.perf_counter() - start)
    shards = encode_splits(out, vocab, lines, config.shard_lines, workers)
    log.info("token shards: %s lines (%.0f s)", lines, time.perf_counter() - start)
    manifest = Manifest(
        config=config,
        inputs=inputs,
        input_paths={role: str(path) for role, path in files.items()},
        report={name: report.to_dict() for name, report in assembled.reports.items()},
        pairs=assembled.pairs,
        concatenated_pairs=assembled.concatenated,
        lines=lines,
        vocab=vocab,
        outputs=_outputs(out, vocab, shards),
        versions=_versions(),
    )
    _finish(out, manifest)
    return manifest


def _claim(out: Path, overwrite: bool) -> None:
    """Take folder ``out`` for a build (``outputs.claim_dir``), marked as fanyi's from now on,
    even if the build fails halfway; its old manifest goes first."""
    claim_dir(out, overwrite, whole=False)
    out.mkdir(parents=True, exist_ok=True)
    mark(out)
    (out / MANIFEST_FILE).unlink(missing_ok=True)


def _finish(out: Path, manifest: Manifest) -> None:
    """Save ``manifest`` in ``out``, the last file of a build, and list every file written."""
    manifest.save(out)
    mark(out)
    log.info("wrote %s", out)

"""Ensemble directories: several trained models, shipped and loaded as one translator.

An ensemble directory holds one complete model directory per member (weights, configs and
vocabularies) and a ``config.yaml`` that names them, with the decoding defaults tuned for the
ensemble on dev (``fanyi tune``)::

    ensemble: [member-1, member-2]
    decode: {length_penalty: 3.0, rerank_backward: 0.2}

``fanyi ensemble A B -o DIR`` writes one, and ``-m DIR`` reads it wherever a model translates
(``translate``, ``evaluate``, ``tune``, ``serve``, ``Translator.load``). Commands that work on
one model's weights (``export``, ``average``) take a member's directory instead. Members must
read and write text alike: the same vocabularies, languages, tags and normalisation.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Sequence
from pathlib import Path

import yaml

from .atomic import staged_dir
from .filenames import CONFIG_FILE, MODEL_FILE
from .model_dir import ENSEMBLE_KEY, read_checkpoint
from .outputs import claim_dir, publish_dir
from .sections import Checkpoint, read_yaml
from .text.recase import table_beside

MEMBER = "member-{}"
SHARED_TEXT = ("src_lang", "tgt_lang", "bidirectional", "lang_tags", "nfkc", "t2s")


def ensemble_members(path: str | Path) -> list[Path] | None:
    """The member directories of ensemble directory ``path``; None when it is not one."""
    config = Path(path) / CONFIG_FILE
    if not config.is_file() or ENSEMBLE_KEY not in (sections := read_yaml(config)):
        return None
    names = sections[ENSEMBLE_KEY]
    if not isinstance(names, list) or len(names) < 2 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"{config}: {ENSEMBLE_KEY} must list two or more member directories")
    home = Path(path).resolve()
    if not all((home / name).resolve().is_relative_to(home) for name in names):
        raise ValueError(f"{config}: a member directory is outside the ensemble directory")
    return [Path(path) / name for name in names]


def read_ensemble(path: str | Path) -> tuple[list[Checkpoint], Checkpoint]:
    """The members' configs, and the ensemble's own: the first member's text settings and
    vocabularies, at the ensemble directory, with its decoding defaults and its ``members``."""
    found = ensemble_members(path)
    if found is None:
        raise ValueError(f"{path} is not an ensemble directory (no {ENSEMBLE_KEY} in its config)")
    checkpoints = [read_checkpoint(member) for member in found]
    check_members(checkpoints)
    decode = read_yaml(Path(path) / CONFIG_FILE).get("decode") or {}
    if not isinstance(decode, dict):
        raise ValueError(f"{Path(path) / CONFIG_FILE}: decode must be a mapping")
    first = checkpoints[0]
    return checkpoints, dataclasses.replace(
        first,
        path=Path(path),
        vocab=first.vocab.inside(first.path.name),
        decode=decode,
        members=[c.path for c in checkpoints],
    )


def check_members(checkpoints: Sequence[Checkpoint]) -> None:
    """Raise unless every member reads and writes text as the first one does."""
    first = checkpoints[0]
    for other in checkpoints[1:]:
        differ = [k for k in SHARED_TEXT if getattr(other.data, k) != getattr(first.data, k)]
        differ += [
            f"{side} vocabulary"
            for side, spm in (("source", "src_spm"), ("target", "tgt_spm"))
            if getattr(other, spm).read_bytes() != getattr(first, spm).read_bytes()
        ]
        if differ:
            raise ValueError(f"{other.path} and {first.path} differ in {', '.join(differ)}")


def write_ensemble_dir(
    models: Sequence[str | Path], out: str | Path, overwrite: bool = False
) -> Path:
    """Copy each model (a model directory, or a run's best checkpoint) into ensemble directory
    ``out``, written complete under a temporary name and then renamed into place (over a model
    only with ``overwrite``, and only one fanyi wrote: ``outputs.claim_dir``). Its decoding
    defaults start as the first model's: tune them for the ensemble with ``fanyi tune``."""
    if len(models) < 2:
        raise ValueError("an ensemble needs at least two models")
    out = claim_dir(out, overwrite)
    checkpoints = [read_checkpoint(model) for model in models]
    check_members(checkpoints)
    names = [MEMBER.format(i) for i in range(1, len(models) + 1)]
    with staged_dir(out) as tmp:
        for name, checkpoint in zip(names, checkpoints, strict=True):
            (tmp / name).mkdir()
            vocab = [checkpoint.path / f for f in checkpoint.vocab.files()]
            for path in dict.fromkeys(
                [
                    checkpoint.path / MODEL_FILE,
                    checkpoint.path / CONFIG_FILE,
                    *vocab,
                    *table_beside(vocab),
                ]
            ):
                shutil.copyfile(path, tmp / name / path.name)
        sections = {ENSEMBLE_KEY: names, "decode": checkpoints[0].decode}
        (tmp / CONFIG_FILE).write_text(yaml.safe_dump(sections, sort_keys=False), encoding="utf-8")
        publish_dir(tmp, out)
    return out


def first_member(path: str | Path) -> Path:
    """An ensemble directory's first member, any other directory itself: one model, where one
    is needed (an export, the peers of a benchmark, the bundled model's vocabulary)."""
    members = ensemble_members(path)
    return members[0] if members else Path(path)

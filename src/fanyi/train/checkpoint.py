"""A run's checkpoints: save one (a model directory plus its resume state), restore a run from
one, or start from another model's weights (``init_from``)."""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import config as config_io
from .. import model_dir
from .._version import __version__
from ..data import Manifest
from ..data.manifest import sha256_file
from ..model import ModelConfig
from .config import TrainConfig
from .context import TrainContext
from .distributed import Distributed
from .state import (
    TrainState,
    capture_rng,
    check_resumable,
    kept_accumulation,
    load_training_state,
    restore_rank_rng,
    saved_train_config,
    write_training_state,
)


@dataclass
class RunSettings:
    """What a checkpoint records beside the weights: the run's config and its data's manifest."""

    cfg: TrainConfig
    manifest: Manifest
    decode: dict[str, Any] = field(default_factory=dict)  # init_from's decoding defaults

    @property
    def out(self) -> Path:
        return Path(self.cfg.out_dir)


def gather_rng(dist: Distributed) -> dict[str, Any]:
    """RNG states; torch's (and CUDA's) from every rank, since dropout differs per rank. Every
    rank calls it (a collective)."""
    rng = capture_rng()
    for key in ("torch", "cuda"):
        if key in rng:
            rng[key] = dist.gather(rng[key])
    return rng


def save(
    ctx: TrainContext,
    run: RunSettings,
    state: TrainState,
    metrics: dict[str, float],
    rng: dict[str, Any],
    is_best: bool,
) -> None:
    """Write ``step-NNNNNNN/`` atomically, then make it the run's last (and maybe best)."""
    name, vocab = f"step-{state.step:07d}", run.manifest.vocab
    sections = {
        "model": config_io.to_dict(ctx.model.config),
        "data": config_io.to_dict(run.manifest.config),
        "train": config_io.to_dict(run.cfg),
        "vocab": {"src_model": vocab.src_model, "tgt_model": vocab.tgt_model, "joint": vocab.joint},
        "checkpoint": {
            "step": state.step,
            "metrics": metrics,
            "dtype": ctx.dtype,
            "fanyi": __version__,
        },
    }
    if run.decode:  # kept from the model it continues (decoding_defaults)
        sections["decode"] = run.decode
    training_state = {
        "state": asdict(state),
        "optimizer": ctx.optimizer.state_dict(),
        "rng": rng,
        "world_size": ctx.dist.world_size,
        "data": run.manifest.data_files(),
    }
    vocab_files = [Path(run.cfg.data_dir) / f for f in (vocab.src_model, vocab.tgt_model)]
    model_dir.write_model_dir(
        run.out / name,
        ctx.model,
        sections,
        vocab_files,
        extra=lambda directory: write_training_state(directory, training_state),
    )
    model_dir.record_checkpoint(run.out, name, is_best, run.cfg.keep_last)


def restore(ctx: TrainContext, run: RunSettings, path: Path) -> tuple[TrainState, TrainConfig]:
    """Continue from checkpoint ``path``: weights, optimizer, RNG, data position. A run saved by
    another number of processes shares what is left of its epoch anew. Returns where training
    is and the run's config (its accumulation scaled, with ``keep_effective_batch``)."""
    checkpoint = model_dir.read_checkpoint(path)
    saved_cfg = saved_train_config(checkpoint)
    check_resumable(saved_cfg, run.cfg)
    _check_model(ctx, checkpoint.model, f"{path}")
    saved = load_training_state(path)
    if saved["data"] != run.manifest.data_files():
        raise ValueError(f"{path} was trained on other data than {run.cfg.data_dir}")
    _load_weights(ctx, path)
    ctx.optimizer.load_state_dict(saved["optimizer"])
    before, now = saved["world_size"], ctx.dist.world_size
    state = TrainState(**saved["state"]).regrouped(before, now)
    restore_rank_rng(saved["rng"], ctx.dist.rank, now, run.cfg.seed, state.step)
    return state, _kept_batch(run.cfg, path, before, saved_cfg.accumulation, ctx.dist)


def _kept_batch(
    cfg: TrainConfig, path: Path, before: int, accumulation: int, dist: Distributed
) -> TrainConfig:
    """``cfg`` with the accumulation that keeps the batches per step of the run saved by
    ``before`` processes (``keep_effective_batch``), or a warning that the batch of a step
    changes."""
    now = dist.world_size
    if cfg.keep_effective_batch:
        return config_io.override(
            cfg, {"accumulation": kept_accumulation(before, accumulation, now)}
        )
    if before * accumulation != now * cfg.accumulation and dist.main:
        warnings.warn(
            f"{path}: trained with {before} process(es) x accumulation {accumulation}, "
            f"resumed with {now} x {cfg.accumulation}: a step now takes "
            f"{now * cfg.accumulation} batches of up to {cfg.max_tokens} tokens instead of "
            f"{before * accumulation} (keep_effective_batch: true keeps it)",
            stacklevel=2,
        )
    return cfg


def decoding_defaults(path: Path) -> dict[str, Any]:
    """The ``decode`` section of model directory ``path``: what a run that continues it (or
    resumes from it) writes into its own checkpoints, so that tuned α, λ and β still apply."""
    return dict(model_dir.read_checkpoint(path).decode)


def initialise_from(ctx: TrainContext, run: RunSettings, path: Path) -> None:
    """Start from the weights of model directory ``path`` (same config and vocabulary)."""
    saved = model_dir.read_checkpoint(path)
    _check_model(ctx, saved.model, f"init_from {path}")
    data_dir, vocab = Path(run.cfg.data_dir), run.manifest.vocab
    for theirs, ours in ((saved.src_spm, vocab.src_model), (saved.tgt_spm, vocab.tgt_model)):
        if sha256_file(theirs) != sha256_file(data_dir / ours):
            raise ValueError(
                f"init_from {path}: its vocabulary {theirs.name} differs from "
                f"{data_dir / ours}; prepare the data with vocab_from: {path}"
            )
    _load_weights(ctx, path)


def _check_model(ctx: TrainContext, saved: ModelConfig, what: str) -> None:
    """Refuse a checkpoint (``what``) whose model config is not this run's."""
    if saved != ctx.model.config:
        raise ValueError(
            f"{what}: its model config differs from this run's:\n"
            f"  saved: {saved}\n  now:   {ctx.model.config}"
        )


def _load_weights(ctx: TrainContext, path: Path) -> None:
    model_dir.load_into(ctx.model, model_dir.read_state_dict(path), path / model_dir.MODEL_FILE)

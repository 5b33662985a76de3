"""The training loop (§5): token batches → label-smoothed loss → Adam with the Noam schedule.

``train(TrainConfig(...))`` reads a prepared data directory and writes a run directory:
``step-NNNNNNN/`` model directories (the last ``keep_last`` and the best), ``checkpoints.json``
naming ``last`` and ``best``, and ``log.jsonl``. Under ``torchrun`` every process trains on its
share of the batches and DDP averages the gradients (on one machine or several: every rank
reads the same data, rank 0 validates and writes); the entry point joins the job and chooses
the device and dtype (``fanyi.runtime``), the loop only asks where it stands.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch
from torch.nn.parallel import DistributedDataParallel
from tqdm import tqdm

from .. import config as config_io
from .. import model_dir
from .._version import __version__
from ..data import (
    Manifest,
    TokenBatchSampler,
    collate,
    load_split,
    load_vocabs,
    read_manifest,
)
from ..data.manifest import sha256_file, split_file
from ..data.regularization import SampledSegmentations
from ..model import ModelConfig, build_model
from .config import TrainConfig
from .distributed import Distributed, check_same_job
from .log import RunLog, train_record
from .loss import LabelSmoothingLoss
from .state import (
    TrainState,
    capture_rng,
    check_resumable,
    kept_accumulation,
    load_training_state,
    restore_rank_rng,
    same_checkpoint,
    saved_train_config,
    seed_everything,
    write_training_state,
)
from .step import StepResult, StepSettings, adam, train_step
from .validate import validate

DTYPES = ("fp32", "bf16")  # what the loop computes in; "auto" is chosen per host by fanyi.runtime


def model_config(cfg: TrainConfig, manifest: Manifest) -> ModelConfig:
    """``cfg.model`` sized to the data: its vocabularies and padding id."""
    vocab = manifest.vocab
    return dataclasses.replace(
        cfg.model, src_vocab_size=vocab.src_size, tgt_vocab_size=vocab.tgt_size, pad_id=vocab.pad_id
    )


def batch_stream(
    sampler: TokenBatchSampler, state: TrainState
) -> Iterator[tuple[int, int, list[int]]]:
    """This rank's batches from where ``state`` is on, forever: (epoch, position after the
    batch, its example indices)."""
    epoch, position, earlier = state.epoch, state.position, state.earlier
    while True:
        sampler.set_epoch(epoch, earlier)
        order = list(sampler)
        for i in range(position, len(order)):
            yield epoch, i + 1, order[i]
        epoch, position, earlier = epoch + 1, 0, []


class Trainer:
    """One training run: set up from a TrainConfig, then :meth:`run` the loop."""

    def __init__(
        self,
        cfg: TrainConfig,
        resume: str | Path | None = None,
        device: torch.device | str = "cpu",
        dtype: str | None = None,
    ) -> None:
        self.cfg, self.dtype = cfg, dtype or cfg.dtype
        if self.dtype not in DTYPES:
            raise ValueError(f"dtype {self.dtype!r}: fp32 or bf16 (fanyi.runtime chooses for auto)")
        self.dist = Distributed.joined(torch.device(device))
        self.out = Path(cfg.out_dir)
        self.log = RunLog(self.out, self.dist.main)
        self._load_data(Path(cfg.data_dir))
        check_same_job(self.dist, cfg, self.manifest)
        self.autocast = torch.autocast(
            self.dist.device.type, dtype=torch.bfloat16, enabled=self.dtype == "bf16"
        )
        self._build_model()
        self.state = TrainState()
        seed_everything(cfg.seed + self.dist.rank)  # per-rank dropout streams
        if resume is not None:
            self.restore(same_checkpoint(resume, self.dist))
        elif cfg.init_from is not None:
            self.initialise_from(model_dir.resolve(cfg.init_from, "best"))
        self.ddp = DistributedDataParallel(self.model) if self.dist.world_size > 1 else self.model
        rank, world_size = self.dist.rank, self.dist.world_size
        self.sampler = TokenBatchSampler(
            *self.train_data.sizes(), cfg.max_tokens, cfg.seed, rank=rank, world_size=world_size
        )
        self.window, self.started = self._new_window(), time.perf_counter()

    def _build_model(self) -> None:
        """The model (seeded: the same initial parameters on every rank), Adam, loss, step."""
        cfg = self.cfg
        seed_everything(cfg.seed)
        self.model = build_model(model_config(cfg, self.manifest)).to(self.dist.device)
        betas = (cfg.adam_beta1, cfg.adam_beta2)
        self.optimizer = adam(self.model.parameters(), betas, cfg.adam_eps)
        self.criterion = LabelSmoothingLoss(cfg.label_smoothing, self.model.config.pad_id)
        d_model = self.model.config.d_model
        self.settings = StepSettings(d_model, cfg.warmup, cfg.lr_factor, cfg.clip_norm)

    def _load_data(self, data_dir: Path) -> None:
        self.manifest = read_manifest(data_dir)
        self.vocabs = load_vocabs(data_dir)
        alpha, seed = self.cfg.subword_alpha, self.cfg.seed
        self.train_data = (
            load_split(data_dir, "train", self.vocabs)
            if alpha == 0
            else SampledSegmentations.load(data_dir, "train", self.vocabs, alpha, seed)
        )
        self.dev = load_split(data_dir, "dev", self.vocabs)
        references = (data_dir / split_file("dev", "tgt")).read_text(encoding="utf-8")
        self.references = references.splitlines()

    # --- the loop ---

    def run(self) -> Path:
        """Train until max_steps, max_epochs, max_minutes or early stopping; returns the run
        directory."""
        cfg, state = self.cfg, self.state
        deadline = None if cfg.max_minutes is None else time.monotonic() + 60 * cfg.max_minutes
        if self.dist.main:
            self.out.mkdir(parents=True, exist_ok=True)
        self.log.trim(state.step)
        stream = batch_stream(self.sampler, state)
        show = cfg.progress and self.dist.main
        bar = tqdm(
            total=cfg.max_steps,
            initial=state.step,
            unit="step",
            dynamic_ncols=True,
            disable=not show,
        )
        saved = state.step if state.step else -1  # a resumed run has its checkpoint at state.step
        self.model.train()
        while state.step < cfg.max_steps:
            pulled = [next(stream) for _ in range(cfg.accumulation)]
            if cfg.max_epochs is not None and pulled[-1][0] >= cfg.max_epochs:
                break
            result = self._step(pulled)
            bar.update(1)
            if state.step % cfg.log_every == 0:
                self._log_train(result, bar)
            if state.step % cfg.validate_every == 0 or state.step == cfg.max_steps:
                saved = state.step
                if self.validate_and_save():
                    break
            if self._out_of_time(deadline):
                break
        if saved != state.step:
            self.validate_and_save()
        bar.close()
        return self.out

    def _step(self, pulled: list[tuple[int, int, list[int]]]) -> StepResult:
        """One optimizer step on the pulled batches; the data position moves past them."""
        self.state.step += 1
        batches = [collate(self.train_data.examples(ids, epoch)) for epoch, _, ids in pulled]
        result = train_step(
            self.ddp,
            self.optimizer,
            self.criterion,
            batches,
            self.state.step,
            self.settings,
            self.autocast,
            self.dist,
        )
        epoch, self.state.position, _ = pulled[-1]
        if epoch != self.state.epoch:
            self.state.epoch, self.state.earlier = epoch, []
        self.window += result.sums
        return result

    def _out_of_time(self, deadline: float | None) -> bool:
        """Whether the wall-clock budget is spent; rank 0's clock decides for every rank, asked
        when the loop logs (asking waits for every rank's GPU)."""
        if deadline is None:
            return False
        if self.dist.world_size == 1:
            return self._say_out_of_time(time.monotonic() >= deadline)
        if self.state.step % self.cfg.log_every:
            return False
        up = bool(self.dist.from_main(torch.tensor([float(time.monotonic() >= deadline)])).item())
        return self._say_out_of_time(up)

    def _say_out_of_time(self, up: bool) -> bool:
        if up and self.cfg.progress and self.dist.main:
            tqdm.write(f"step {self.state.step}: time budget of {self.cfg.max_minutes} min spent")
        return up

    def _new_window(self) -> torch.Tensor:
        """The sums (loss, NLL, target tokens) of the steps since the last log, on the device."""
        return torch.zeros(3, dtype=torch.float64, device=self.dist.device)

    def _log_train(self, last: StepResult, bar: tqdm) -> None:
        """Log the steps since the last record (loss, perplexity, tokens/s: summed over ranks)
        and the last step's rate and gradient norm; start a new window."""
        sums, seconds = self.dist.sum(self.window).tolist(), time.perf_counter() - self.started
        step, epoch = self.state.step, self.state.epoch
        record = train_record(step, epoch, sums, seconds, last.lr, last.grad_norm)
        bar.set_postfix_str(
            f"loss {record['loss']:.3f} ppl {record['ppl']:.1f} lr {last.lr:.2e} "
            f"{record['tgt_tokens_per_s']:,.0f} tok/s"
        )
        self.log.append(record)
        self.window, self.started = self._new_window(), time.perf_counter()

    # --- validation, checkpoints, early stopping ---

    def validate_and_save(self) -> bool:
        """Validate (rank 0), checkpoint, update early stopping; True when training should stop."""
        cfg, state = self.cfg, self.state
        rng = self._gather_rng()
        stop = torch.zeros(1)
        if self.dist.main:
            metrics = validate(
                self.model,
                self.dev,
                self.references,
                self.vocabs[1],
                self.manifest.config.tgt_lang,
                cfg,
                self.autocast,
                self.dist.device,
            )
            key = "bleu" if cfg.best_metric == "bleu" else "dev_loss"
            score = metrics[key] if key == "bleu" else -metrics[key]
            is_best = state.best is None or score > state.best
            state.best = score if is_best else state.best
            state.bad_validations = 0 if is_best else state.bad_validations + 1
            self.log.append(
                {
                    "kind": "valid",
                    "step": state.step,
                    "epoch": state.epoch,
                    **metrics,
                    "best": is_best,
                }
            )
            if cfg.progress:
                shown = " ".join(f"{k} {v:.3f}" for k, v in metrics.items())
                tqdm.write(f"step {state.step}: {shown}{' (best)' if is_best else ''}")
            self.save(metrics, rng, is_best)
            stop[0] = float(cfg.patience is not None and state.bad_validations >= cfg.patience)
        return bool(self.dist.from_main(stop).item())

    def save(self, metrics: dict[str, float], rng: dict[str, Any], is_best: bool) -> None:
        """Write ``step-NNNNNNN/`` atomically, then make it the run's last (and maybe best)."""
        name = f"step-{self.state.step:07d}"
        vocab = self.manifest.vocab
        sections = {
            "model": config_io.to_dict(self.model.config),
            "data": config_io.to_dict(self.manifest.config),
            "train": config_io.to_dict(self.cfg),
            "vocab": {
                "src_model": vocab.src_model,
                "tgt_model": vocab.tgt_model,
                "joint": vocab.joint,
            },
            "checkpoint": {
                "step": self.state.step,
                "metrics": metrics,
                "dtype": self.dtype,
                "fanyi": __version__,
            },
        }
        training_state = {
            "state": asdict(self.state),
            "optimizer": self.optimizer.state_dict(),
            "rng": rng,
            "world_size": self.dist.world_size,
            "data": self.manifest.data_files(),
        }
        vocab_files = [Path(self.cfg.data_dir) / f for f in (vocab.src_model, vocab.tgt_model)]
        model_dir.write_model_dir(
            self.out / name,
            self.model,
            sections,
            vocab_files,
            extra=lambda directory: write_training_state(directory, training_state),
        )
        model_dir.record_checkpoint(self.out, name, is_best, self.cfg.keep_last)

    # --- resume ---

    def restore(self, path: Path) -> None:
        """Continue from checkpoint ``path``: weights, optimizer, RNG, data position. A run
        saved by another number of processes shares what is left of its epoch anew."""
        saved = model_dir.read_checkpoint(path)
        saved_cfg = saved_train_config(saved)
        check_resumable(saved_cfg, self.cfg)
        if saved.model != self.model.config:
            raise ValueError(
                f"{path}: its model config differs from this run's:\n"
                f"  saved: {saved.model}\n  now:   {self.model.config}"
            )
        state = load_training_state(path)
        if state["data"] != self.manifest.data_files():
            raise ValueError(f"{path} was trained on other data than {self.cfg.data_dir}")
        model_dir.load_into(
            self.model, model_dir.read_state_dict(path), path / model_dir.MODEL_FILE
        )
        self.optimizer.load_state_dict(state["optimizer"])
        before, now = state["world_size"], self.dist.world_size
        self.state = TrainState(**state["state"]).regrouped(before, now)
        restore_rank_rng(state["rng"], self.dist.rank, now, self.cfg.seed, self.state.step)
        self._keep_or_tell_batch(path, before, saved_cfg.accumulation)

    def _keep_or_tell_batch(self, path: Path, before: int, accumulation: int) -> None:
        """Scale the accumulation to the batches per step of the run saved by ``before``
        processes (``keep_effective_batch``), or warn that the batch of a step changes."""
        now, cfg = self.dist.world_size, self.cfg
        if cfg.keep_effective_batch:
            kept = kept_accumulation(before, accumulation, now)
            self.cfg = config_io.override(cfg, {"accumulation": kept})
        elif before * accumulation != now * cfg.accumulation and self.dist.main:
            warnings.warn(
                f"{path}: trained with {before} process(es) x accumulation {accumulation}, "
                f"resumed with {now} x {cfg.accumulation}: a step now takes "
                f"{now * cfg.accumulation} batches of up to {cfg.max_tokens} tokens instead of "
                f"{before * accumulation} (keep_effective_batch: true keeps it)",
                stacklevel=2,
            )

    def initialise_from(self, path: Path) -> None:
        """Start from the weights of model directory ``path`` (same config and vocabulary)."""
        saved = model_dir.read_checkpoint(path)
        if saved.model != self.model.config:
            raise ValueError(
                f"init_from {path}: its model config differs from this run's:\n"
                f"  saved: {saved.model}\n  now:   {self.model.config}"
            )
        data_dir, vocab = Path(self.cfg.data_dir), self.manifest.vocab
        for theirs, ours in ((saved.src_spm, vocab.src_model), (saved.tgt_spm, vocab.tgt_model)):
            if sha256_file(theirs) != sha256_file(data_dir / ours):
                raise ValueError(
                    f"init_from {path}: its vocabulary {theirs.name} differs from "
                    f"{data_dir / ours}; prepare the data with vocab_from: {path}"
                )
        model_dir.load_into(
            self.model, model_dir.read_state_dict(path), path / model_dir.MODEL_FILE
        )

    def _gather_rng(self) -> dict[str, Any]:
        """RNG states; torch's (and CUDA's) from every rank, since dropout differs per rank."""
        rng = capture_rng()
        for key in ("torch", "cuda"):
            if key in rng:
                rng[key] = self.dist.gather(rng[key])
        return rng


def train(
    cfg: TrainConfig,
    resume: str | Path | None = None,
    device: torch.device | str = "cpu",
    dtype: str | None = None,
) -> Path:
    """Train by ``cfg`` (continuing from checkpoint/run ``resume``) on ``device`` in ``dtype``
    (default ``cfg.dtype``, fp32 or bf16); returns the run directory."""
    return Trainer(cfg, resume, device, dtype).run()

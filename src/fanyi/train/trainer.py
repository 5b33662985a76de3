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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from tqdm import tqdm

from .. import model_dir
from ..data import (
    Batch,
    Manifest,
    ParallelDataset,
    TokenBatchSampler,
    load_split,
    load_vocabs,
    read_manifest,
)
from ..data.regularization import SampledSegmentations
from ..model import ModelConfig, build_model
from .checkpoint import (
    RunSettings,
    decoding_defaults,
    gather_rng,
    initialise_from,
    restore,
    save,
)
from .config import TrainConfig
from .context import StepSettings, TrainContext, check_dtype
from .distributed import Distributed, check_same_job
from .log import RunLog, Window
from .loss import LabelSmoothingLoss
from .prefetch import Prefetcher, background
from .state import TrainState, same_checkpoint, seed_everything
from .step import StepResult, adam, train_step
from .validate import DevSet, validate

Pulled = list[tuple[int, int, list[int]]]  # a step's batches: (epoch, position after, indices)


def model_config(cfg: TrainConfig, manifest: Manifest) -> ModelConfig:
    """``cfg.model`` sized to the data: its vocabularies and padding id."""
    vocab = manifest.vocab
    return dataclasses.replace(
        cfg.model, src_vocab_size=vocab.src_size, tgt_vocab_size=vocab.tgt_size, pad_id=vocab.pad_id
    )


@dataclass
class TrainData:
    """What a run reads from its data directory."""

    manifest: Manifest
    train: ParallelDataset | SampledSegmentations
    dev: DevSet

    @classmethod
    def load(cls, cfg: TrainConfig) -> TrainData:
        data_dir = Path(cfg.data_dir)
        manifest, vocabs = read_manifest(data_dir), load_vocabs(data_dir)
        alpha, seed = cfg.subword_alpha, cfg.seed
        train = (
            load_split(data_dir, "train", vocabs)
            if alpha == 0
            else SampledSegmentations.load(data_dir, "train", vocabs, alpha, seed)
        )
        return cls(manifest, train, DevSet.load(data_dir, vocabs, manifest.config.tgt_lang))


def build_context(
    cfg: TrainConfig, manifest: Manifest, dist: Distributed, dtype: str
) -> TrainContext:
    """The model (seeded: the same initial parameters on every rank), Adam, the loss and the
    rate, on this process's device."""
    seed_everything(cfg.seed)
    model = build_model(model_config(cfg, manifest)).to(dist.device)
    optimizer = adam(model.parameters(), (cfg.adam_beta1, cfg.adam_beta2), cfg.adam_eps)
    criterion = LabelSmoothingLoss(cfg.label_smoothing, model.config.pad_id)
    settings = StepSettings(model.config.d_model, cfg.warmup, cfg.lr_factor, cfg.clip_norm)
    return TrainContext(model, optimizer, criterion, settings, dist, dtype)


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


def step_pulls(
    batches: Iterator[tuple[int, int, list[int]]], accumulation: int
) -> Iterator[Pulled]:
    """The batches of each step, ``accumulation`` at a time."""
    while True:
        yield [next(batches) for _ in range(accumulation)]


def progress_bar(steps: int, done: int, shown: bool) -> tqdm:
    return tqdm(total=steps, initial=done, unit="step", dynamic_ncols=True, disable=not shown)


class Trainer:
    """One training run: set up from a TrainConfig (data, context, where training is), then
    :meth:`run` the loop."""

    def __init__(
        self,
        cfg: TrainConfig,
        resume: str | Path | None = None,
        device: torch.device | str = "cpu",
        dtype: str | None = None,
    ) -> None:
        dtype = check_dtype(dtype or cfg.dtype)
        dist = Distributed.joined(torch.device(device))
        self.data = TrainData.load(cfg)
        check_same_job(dist, cfg, self.data.manifest)
        self.ctx = build_context(cfg, self.data.manifest, dist, dtype)
        self.cfg, self.state, self.decode = cfg, TrainState(), {}
        seed_everything(cfg.seed + dist.rank)  # per-rank dropout streams
        if resume is not None:
            checkpoint = same_checkpoint(resume, dist)
            self.state, self.cfg = restore(self.ctx, self.run_settings, checkpoint)
            self.decode = decoding_defaults(checkpoint)
        elif cfg.init_from is not None:
            start = model_dir.resolve(cfg.init_from, "best")
            initialise_from(self.ctx, self.run_settings, start)
            self.decode = decoding_defaults(start)
        if dist.world_size > 1:  # after loading: DDP copies rank 0's parameters to every rank
            self.ctx.forward = DistributedDataParallel(self.ctx.model)
        if cfg.compile:  # around DDP, whose buckets TorchDynamo splits the graph at
            self.ctx.forward = cast(nn.Module, torch.compile(self.ctx.stepped))
        self.sampler = TokenBatchSampler(
            *self.data.train.sizes(),
            cfg.max_tokens,
            cfg.seed,
            rank=dist.rank,
            world_size=dist.world_size,
        )
        self.log, self.window = RunLog(Path(cfg.out_dir), dist.main), Window(dist)

    @property
    def run_settings(self) -> RunSettings:
        """What a checkpoint records beside the weights."""
        return RunSettings(self.cfg, self.data.manifest, self.decode)

    # --- the loop ---

    def run(self) -> Path:
        """Train until max_steps, max_epochs, max_minutes or early stopping; returns the run
        directory."""
        cfg, state, main = self.cfg, self.state, self.ctx.dist.main
        deadline = None if cfg.max_minutes is None else time.monotonic() + 60 * cfg.max_minutes
        if main:
            Path(cfg.out_dir).mkdir(parents=True, exist_ok=True)
        self.log.trim(state.step)
        bar = progress_bar(cfg.max_steps, state.step, shown=cfg.progress and main)
        saved = state.step if state.step else -1  # a resumed run has its checkpoint at state.step
        self.ctx.model.train()
        with self.prefetcher() as steps:
            while state.step < cfg.max_steps:
                pulled, batches = next(steps)
                if cfg.max_epochs is not None and pulled[-1][0] >= cfg.max_epochs:
                    break
                result = self.step(pulled, batches)
                bar.update(1)
                if state.step % cfg.log_every == 0:
                    self.log_train(result, bar)
                if state.step % cfg.validate_every == 0 or state.step == cfg.max_steps:
                    saved = state.step
                    if self.validate_and_save():
                        break
                if self.out_of_time(deadline):
                    break
        if saved != state.step:
            self.validate_and_save()
        bar.close()
        return Path(cfg.out_dir)

    def prefetcher(self) -> Prefetcher[Pulled]:
        """Each step's pulled batches from where the state is, collated one step ahead on a
        thread where ``prefetch`` says so."""
        device = self.ctx.dist.device
        steps = step_pulls(batch_stream(self.sampler, self.state), self.cfg.accumulation)
        return Prefetcher(steps, self.collated, device, background(self.cfg.prefetch, device))

    def collated(self, pulled: Pulled) -> list[Batch]:
        """The batches of ``pulled``, on the host (on the prefetch thread where it runs)."""
        return [self.data.train.batch(ids, epoch) for epoch, _, ids in pulled]

    def step(self, pulled: Pulled, batches: list[Batch]) -> StepResult:
        """One optimizer step on the pulled batches; the data position moves past them."""
        self.state.step += 1
        result = train_step(self.ctx, batches, self.state.step)
        epoch, self.state.position, _ = pulled[-1]
        if epoch != self.state.epoch:
            self.state.epoch, self.state.earlier = epoch, []
        self.window.add(result.sums)
        return result

    def out_of_time(self, deadline: float | None) -> bool:
        """Whether the wall-clock budget is spent: alone, by the host's clock after every step
        (no wait for the device); in a job, rank 0's clock decides for every rank, asked when
        the loop logs (asking waits for every rank's device)."""
        if deadline is None:
            return False
        if self.ctx.dist.world_size == 1:
            up = time.monotonic() >= deadline
        elif self.state.step % self.cfg.log_every:
            return False
        else:
            late = torch.tensor([float(time.monotonic() >= deadline)])
            up = bool(self.ctx.dist.from_main(late).item())
        if up and self.cfg.progress and self.ctx.dist.main:
            tqdm.write(f"step {self.state.step}: time budget of {self.cfg.max_minutes} min spent")
        return up

    def log_train(self, last: StepResult, bar: tqdm) -> None:
        """Log the steps since the last record (loss, perplexity, tokens/s: summed over ranks)
        and the last step's rate and gradient norm; start a new window."""
        record = self.window.record(self.state.step, self.state.epoch, last.lr, last.grad_norm)
        bar.set_postfix_str(
            f"loss {record['loss']:.3f} ppl {record['ppl']:.1f} lr {last.lr:.2e} "
            f"{record['tgt_tokens_per_s']:,.0f} tok/s"
        )
        self.log.append(record)
        self.window.restart()

    # --- validation, checkpoints, early stopping ---

    def validate_and_save(self) -> bool:
        """Validate (rank 0), checkpoint, update early stopping; True when training should stop."""
        cfg, state, dist = self.cfg, self.state, self.ctx.dist
        rng = gather_rng(dist)  # every rank's: a collective
        stop = torch.zeros(1)
        if dist.main:
            metrics = validate(self.ctx, self.data.dev, cfg)
            key = "bleu" if cfg.best_metric == "bleu" else "dev_loss"
            is_best = state.improved(metrics[key] if key == "bleu" else -metrics[key])
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
            save(self.ctx, self.run_settings, state, metrics, rng, is_best)
            stop[0] = float(cfg.patience is not None and state.bad_validations >= cfg.patience)
        return bool(dist.from_main(stop).item())


def train(
    cfg: TrainConfig,
    resume: str | Path | None = None,
    device: torch.device | str = "cpu",
    dtype: str | None = None,
) -> Path:
    """Train by ``cfg`` (continuing from checkpoint/run ``resume``) on ``device`` in ``dtype``
    (default ``cfg.dtype``, fp32 or bf16); returns the run directory."""
    return Trainer(cfg, resume, device, dtype).run()

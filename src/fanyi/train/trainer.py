"""The training loop (§5): token batches → label-smoothed loss → Adam with the Noam schedule.

``train(TrainConfig(...))`` reads a prepared data directory and writes a run directory:
``step-NNNNNNN/`` model directories (the last ``keep_last`` and the best), ``checkpoints.json``
naming ``last`` and ``best``, and ``log.jsonl``. Under ``torchrun`` every process trains on its
share of the batches and DDP averages the gradients (gloo on CPU, nccl on GPU).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import sacrebleu
import torch
import torch.distributed as torch_dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from tqdm import tqdm

from .. import __version__
from .. import config as config_io
from ..data import (
    BOS_ID,
    EOS_ID,
    Batch,
    ParallelDataset,
    TokenBatchSampler,
    collate,
    load_split,
    load_vocabs,
)
from ..data.download import sha256_file
from ..decode import greedy_search
from ..model import ModelConfig, Transformer, build_model
from ..runtime import seed_everything, set_threads
from . import checkpoint as ckpt
from .config import RESUMABLE_CHANGES, TrainConfig
from .loss import LabelSmoothingLoss
from .schedule import noam_lr

LOG_FILE = "log.jsonl"


@dataclass
class Distributed:
    """This process's place in a torchrun job (rank 0 of 1 when run alone)."""

    rank: int
    world_size: int
    local_world_size: int
    device: torch.device

    @property
    def main(self) -> bool:
        return self.rank == 0


@dataclass
class TrainState:
    """Where training is: saved with each checkpoint, so a resumed run continues exactly."""

    step: int = 0  # optimizer steps taken
    epoch: int = 0  # epoch of the next batch
    position: int = 0  # batches of that epoch already consumed (per process)
    best: float | None = None  # best validation metric so far
    bad_validations: int = 0  # validations since the best (early stopping)


def setup_distributed(device: str) -> Distributed:
    """Join the torchrun job described by RANK/WORLD_SIZE, if any; pick the device."""
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    use_cuda = device == "cuda" or (device == "auto" and torch.cuda.is_available())
    chosen = torch.device(
        f"cuda:{local_rank}" if use_cuda else device if device != "auto" else "cpu"
    )
    if use_cuda:
        torch.cuda.set_device(chosen)
    if world_size > 1 and not torch_dist.is_initialized():
        torch_dist.init_process_group("nccl" if use_cuda else "gloo")
    rank = torch_dist.get_rank() if world_size > 1 else 0
    local_world_size = int(os.environ.get("LOCAL_WORLD_SIZE", str(world_size)))
    return Distributed(rank, world_size, local_world_size, chosen)


# bf16 matmul in hardware: AMX tiles (Intel Sapphire Rapids on) or AVX-512 BF16 dot products
# (Intel Cooper Lake, AMD Zen 4 on); measured 1.8× the fp32 training speed on a 2-core Zen 4.
BF16_CPU_FLAGS = frozenset({"amx_bf16", "avx512_bf16"})


def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags from /proc/cpuinfo (none where there is no such file)."""
    try:
        with open("/proc/cpuinfo") as f:
            line = next((line for line in f if line.startswith("flags")), ":")
    except OSError:
        return frozenset()
    return frozenset(line.split(":", 1)[1].split())


def resolve_dtype(dtype: str, device: torch.device, flags: frozenset[str] | None = None) -> str:
    """``auto`` → bf16 on GPUs that support it and on CPUs with bf16 matmul instructions
    (``BF16_CPU_FLAGS``), else fp32."""
    if dtype != "auto":
        return dtype
    if device.type == "cuda":
        return "bf16" if torch.cuda.is_bf16_supported() else "fp32"
    return "bf16" if (cpu_flags() if flags is None else flags) & BF16_CPU_FLAGS else "fp32"


def model_config(cfg: TrainConfig, manifest: dict[str, Any]) -> ModelConfig:
    """The ModelConfig of ``cfg`` (file, then inline keys), sized to the data's vocabularies."""
    values: dict[str, Any] = {}
    if cfg.model_config is not None:
        values = config_io.to_dict(config_io.load_yaml(ModelConfig, cfg.model_config))
    vocab = manifest["vocab"]
    values.update(cfg.model)
    values.update(
        src_vocab_size=vocab["src_size"], tgt_vocab_size=vocab["tgt_size"], pad_id=vocab["pad_id"]
    )
    values.setdefault("tie_embeddings", vocab["joint"])
    return config_io.from_dict(ModelConfig, values)


def batch_stream(
    dataset: ParallelDataset, sampler: TokenBatchSampler, epoch: int, position: int
) -> Iterator[tuple[int, int, Batch]]:
    """Batches from ``position`` of ``epoch`` on, forever: (epoch, position after it, batch)."""
    while True:
        sampler.set_epoch(epoch)
        order = list(sampler)
        for i in range(position, len(order)):
            yield epoch, i + 1, collate([dataset[j] for j in order[i]])
        epoch, position = epoch + 1, 0


def accumulate_gradients(
    model: nn.Module,
    criterion: LabelSmoothingLoss,
    batches: list[Batch],
    autocast: Any,
    dist: Distributed,
) -> torch.Tensor:
    """Backpropagate the loss of ``batches`` normalised by all their target tokens (all ranks).

    Each micro-batch adds loss_sum / total tokens, so accumulating two halves gives the
    gradient of the whole; DDP averages over ranks, hence the factor world_size. Returns the
    (loss sum, NLL sum, tokens) of this process.
    """
    tokens = torch.tensor(float(sum(b.ntokens for b in batches)), device=dist.device)
    if dist.world_size > 1:
        torch_dist.all_reduce(tokens)
    scale = dist.world_size / tokens.item()
    stats = torch.zeros(3, dtype=torch.float64)
    for i, batch in enumerate(batches):
        batch = batch.to(dist.device)
        last = i == len(batches) - 1
        sync = contextlib.nullcontext() if last or dist.world_size == 1 else model.no_sync()
        with sync:
            with autocast:
                log_probs = model(batch.src, batch.tgt_in)
            loss, nll = criterion(log_probs, batch.tgt_out)
            (loss * scale).backward()
        stats += torch.tensor([loss.item(), nll.item(), batch.ntokens], dtype=torch.float64)
    return stats


def optimizer_step(
    model: nn.Module, optimizer: torch.optim.Optimizer, cfg: TrainConfig, d_model: int, step: int
) -> tuple[float, float]:
    """Set the Noam rate of ``step`` (eq. 3), clip, update; returns (lr, gradient norm)."""
    lr = noam_lr(step, d_model, cfg.warmup, cfg.lr_factor)
    for group in optimizer.param_groups:
        group["lr"] = lr
    norm = nn.utils.clip_grad_norm_(model.parameters(), cfg.clip_norm or math.inf)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return lr, float(norm)


@torch.no_grad()
def dev_loss(
    model: Transformer, dev: ParallelDataset, cfg: TrainConfig, autocast: Any, device: torch.device
) -> dict[str, float]:
    """Per-token label-smoothed loss and NLL (and perplexity) of the dev set."""
    criterion = LabelSmoothingLoss(cfg.label_smoothing, model.config.pad_id)
    sampler = TokenBatchSampler(*dev.sizes(), cfg.valid_max_tokens, shuffle=False)
    total = torch.zeros(3, dtype=torch.float64)
    for indices in sampler:
        batch = collate([dev[i] for i in indices]).to(device)
        with autocast:
            log_probs = model(batch.src, batch.tgt_in)
        loss, nll = criterion(log_probs, batch.tgt_out)
        total += torch.tensor([loss.item(), nll.item(), batch.ntokens], dtype=torch.float64)
    loss, nll = (total[:2] / total[2]).tolist()
    return {"dev_loss": loss, "dev_nll": nll, "dev_ppl": math.exp(min(nll, 50.0))}


@torch.no_grad()
def dev_translations(
    model: Transformer, dev: ParallelDataset, cfg: TrainConfig, autocast: Any, device: torch.device
) -> list[list[int]]:
    """Greedy decodings of the first ``valid_bleu_sentences`` dev sources, in order."""
    count = min(len(dev), cfg.valid_bleu_sentences or len(dev))
    subset = ParallelDataset(dev.src[:count], dev.tgt[:count])
    sampler = TokenBatchSampler(*subset.sizes(), cfg.valid_max_tokens, shuffle=False)
    hypotheses: list[list[int]] = [[] for _ in range(count)]
    for indices in sampler:
        src = collate([subset[i] for i in indices]).src.to(device)
        max_len = min(model.config.max_len - 1, 2 * src.size(1) + 10)
        with autocast:
            decoded = greedy_search(model, src, BOS_ID, EOS_ID, max_len)
        for i, ids in zip(indices, decoded, strict=True):
            hypotheses[i] = ids
    return hypotheses


def bleu_chrf(hypotheses: list[str], references: list[str], tgt_lang: str) -> dict[str, float]:
    """Corpus BLEU and chrF by sacreBLEU (its zh tokenizer when the target is Chinese)."""
    tokenize = "zh" if tgt_lang == "zh" else "13a"
    bleu = sacrebleu.corpus_bleu(hypotheses, [references], tokenize=tokenize)
    chrf = sacrebleu.corpus_chrf(hypotheses, [references])
    return {"bleu": bleu.score, "chrf": chrf.score}


class Trainer:
    """One training run: set up from a TrainConfig, then :meth:`run` the loop."""

    def __init__(self, cfg: TrainConfig, resume: str | Path | None = None) -> None:
        self.cfg = cfg
        self.dist = dist = setup_distributed(cfg.device)
        set_threads(cfg.threads or max(1, len(os.sched_getaffinity(0)) // dist.local_world_size))
        self.out = Path(cfg.out_dir)
        data_dir = Path(cfg.data_dir)
        self.manifest = json.loads((data_dir / "manifest.json").read_text(encoding="utf-8"))
        self.vocabs = load_vocabs(data_dir)
        self.train_data = load_split(data_dir, "train", self.vocabs)
        self.dev = load_split(data_dir, "dev", self.vocabs)
        self.references = (data_dir / "dev.tgt").read_text(encoding="utf-8").splitlines()
        self.dtype = resolve_dtype(cfg.dtype, dist.device)
        self.autocast = torch.autocast(
            dist.device.type, dtype=torch.bfloat16, enabled=self.dtype == "bf16"
        )
        seed_everything(cfg.seed)  # the same initial parameters on every rank
        self.model = build_model(model_config(cfg, self.manifest)).to(dist.device)
        self.optimizer = torch.optim.Adam(
            self.model.parameters(),
            lr=0.0,
            eps=cfg.adam_eps,
            betas=(cfg.adam_beta1, cfg.adam_beta2),
        )
        self.criterion = LabelSmoothingLoss(cfg.label_smoothing, self.model.config.pad_id)
        self.state = TrainState()
        seed_everything(cfg.seed + dist.rank)  # per-rank dropout streams
        if resume is not None:
            self.restore(ckpt.resolve(resume, "last"))
        elif cfg.init_from is not None:
            self.initialise_from(ckpt.resolve(cfg.init_from, "best"))
        self.ddp = DistributedDataParallel(self.model) if dist.world_size > 1 else self.model
        self.sampler = TokenBatchSampler(
            *self.train_data.sizes(),
            cfg.max_tokens,
            seed=cfg.seed,
            rank=dist.rank,
            world_size=dist.world_size,
        )

    # --- the loop ---

    def run(self) -> Path:
        """Train until max_steps, max_epochs, max_minutes or early stopping; returns the run
        directory."""
        cfg, state = self.cfg, self.state
        deadline = None if cfg.max_minutes is None else time.monotonic() + 60 * cfg.max_minutes
        if self.dist.main:
            self.out.mkdir(parents=True, exist_ok=True)
            self._trim_log()
        stream = batch_stream(self.train_data, self.sampler, state.epoch, state.position)
        bar = tqdm(
            total=cfg.max_steps,
            initial=state.step,
            unit="step",
            dynamic_ncols=True,
            disable=not (cfg.progress and self.dist.main),
        )
        window, started, saved = torch.zeros(3, dtype=torch.float64), time.perf_counter(), -1
        self.model.train()
        while state.step < cfg.max_steps:
            pulled = [next(stream) for _ in range(cfg.accumulation)]
            if cfg.max_epochs is not None and pulled[-1][0] >= cfg.max_epochs:
                break
            window += accumulate_gradients(
                self.ddp, self.criterion, [b for *_, b in pulled], self.autocast, self.dist
            )
            state.step += 1
            state.epoch, state.position = pulled[-1][:2]
            lr, norm = optimizer_step(
                self.model, self.optimizer, cfg, self.model.config.d_model, state.step
            )
            bar.update(1)
            if state.step % cfg.log_every == 0:
                self._log_train(window, time.perf_counter() - started, lr, norm, bar)
                window, started = torch.zeros(3, dtype=torch.float64), time.perf_counter()
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

    def _out_of_time(self, deadline: float | None) -> bool:
        """Whether the wall-clock budget is spent; rank 0's clock decides for every rank."""
        if deadline is None:
            return False
        up = torch.tensor([float(time.monotonic() >= deadline)], device=self.dist.device)
        if self.dist.world_size > 1:
            torch_dist.broadcast(up, 0)
        if up.item() and self.cfg.progress and self.dist.main:
            tqdm.write(f"step {self.state.step}: time budget of {self.cfg.max_minutes} min spent")
        return bool(up.item())

    def _log_train(
        self, window: torch.Tensor, seconds: float, lr: float, norm: float, bar: tqdm
    ) -> None:
        """Reduce the window's sums over ranks; log per-token loss, perplexity, lr, tok/s."""
        if self.dist.world_size > 1:
            window = window.to(self.dist.device)
            torch_dist.all_reduce(window)
        loss, nll, tokens = window.tolist()
        record = {
            "kind": "train",
            "step": self.state.step,
            "epoch": self.state.epoch,
            "loss": loss / tokens,
            "nll": nll / tokens,
            "ppl": math.exp(min(nll / tokens, 50.0)),
            "lr": lr,
            "grad_norm": norm,
            "tgt_tokens_per_s": tokens / seconds,
        }
        bar.set_postfix_str(
            f"loss {record['loss']:.3f} ppl {record['ppl']:.1f} lr {lr:.2e} "
            f"{record['tgt_tokens_per_s']:,.0f} tok/s"
        )
        self._append_log(record)

    # --- validation, checkpoints, early stopping ---

    def validate_and_save(self) -> bool:
        """Validate (rank 0), checkpoint, update early stopping; True when training should stop."""
        cfg, state = self.cfg, self.state
        rng = self._gather_rng()
        stop = torch.zeros(1, device=self.dist.device)
        if self.dist.main:
            metrics = self.validate()
            key = "bleu" if cfg.best_metric == "bleu" else "dev_loss"
            score = metrics[key] if key == "bleu" else -metrics[key]
            is_best = state.best is None or score > state.best
            state.best = score if is_best else state.best
            state.bad_validations = 0 if is_best else state.bad_validations + 1
            self._append_log(
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
        if self.dist.world_size > 1:
            torch_dist.broadcast(stop, 0)
        return bool(stop.item())

    def validate(self) -> dict[str, float]:
        """Dev loss, and BLEU/chrF of greedy decoding when asked."""
        cfg, device = self.cfg, self.dist.device
        self.model.eval()
        metrics = dev_loss(self.model, self.dev, cfg, self.autocast, device)
        if cfg.valid_bleu:
            ids = dev_translations(self.model, self.dev, cfg, self.autocast, device)
            hypotheses = [self.vocabs[1].decode(h) for h in ids]
            metrics |= bleu_chrf(
                hypotheses, self.references[: len(hypotheses)], self.manifest["config"]["tgt_lang"]
            )
        self.model.train()
        return metrics

    def save(self, metrics: dict[str, float], rng: dict[str, Any], is_best: bool) -> None:
        """Write ``step-NNNNNNN/`` atomically, then make it the run's last (and maybe best)."""
        name = f"step-{self.state.step:07d}"
        vocab = self.manifest["vocab"]
        sections = {
            "model": config_io.to_dict(self.model.config),
            "data": self.manifest["config"],
            "train": config_io.to_dict(self.cfg),
            "vocab": {k: vocab[k] for k in ("src_model", "tgt_model", "joint")},
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
            "data": self._data_digest(),
        }
        vocab_files = [Path(self.cfg.data_dir) / vocab[k] for k in ("src_model", "tgt_model")]
        ckpt.write_model_dir(self.out / name, self.model, sections, vocab_files, training_state)
        ckpt.record_checkpoint(self.out, name, is_best, self.cfg.keep_last)

    # --- resume ---

    def restore(self, path: Path) -> None:
        """Continue from checkpoint ``path``: weights, optimizer, RNG, data position."""
        saved = ckpt.read_checkpoint(path)
        if saved.train is None:
            raise ValueError(f"{path} has no training config: it cannot be resumed")
        check_resumable(saved.train, self.cfg)
        if saved.model != self.model.config:
            raise ValueError(
                f"{path}: its model config differs from this run's:\n"
                f"  saved: {saved.model}\n  now:   {self.model.config}"
            )
        state = ckpt.load_training_state(path)
        if state["world_size"] != self.dist.world_size:
            raise ValueError(
                f"{path} was trained by {state['world_size']} processes; resume it "
                f"with the same number (not {self.dist.world_size})"
            )
        if state["data"] != self._data_digest():
            raise ValueError(f"{path} was trained on other data than {self.cfg.data_dir}")
        ckpt.load_into(self.model, ckpt.read_state_dict(path), path / ckpt.MODEL_FILE)
        self.optimizer.load_state_dict(state["optimizer"])
        self.state = TrainState(**state["state"])
        rng = state["rng"]
        ckpt.restore_rng(
            {**rng, **{k: rng[k][self.dist.rank] for k in ("torch", "cuda") if k in rng}}
        )

    def initialise_from(self, path: Path) -> None:
        """Start from the weights of model directory ``path`` (same config and vocabulary)."""
        saved = ckpt.read_checkpoint(path)
        if saved.model != self.model.config:
            raise ValueError(
                f"init_from {path}: its model config differs from this run's:\n"
                f"  saved: {saved.model}\n  now:   {self.model.config}"
            )
        data_dir, vocab = Path(self.cfg.data_dir), self.manifest["vocab"]
        for key in ("src_model", "tgt_model"):
            theirs, ours = path / saved.vocab[key], data_dir / vocab[key]
            if sha256_file(theirs) != sha256_file(ours):
                raise ValueError(
                    f"init_from {path}: its vocabulary {theirs.name} differs from {ours}; "
                    f"prepare the data with vocab_from: {path}"
                )
        ckpt.load_into(self.model, ckpt.read_state_dict(path), path / ckpt.MODEL_FILE)

    def _gather_rng(self) -> dict[str, Any]:
        """RNG states; torch's (and CUDA's) from every rank, since dropout differs per rank."""
        rng = ckpt.capture_rng()
        for key in ("torch", "cuda"):
            if key not in rng:
                continue
            mine = rng[key].to(self.dist.device)
            every = [mine]
            if self.dist.world_size > 1:
                every = [torch.empty_like(mine) for _ in range(self.dist.world_size)]
                torch_dist.all_gather(every, mine)
            rng[key] = [t.cpu() for t in every]
        return rng

    def _data_digest(self) -> dict[str, str]:
        outputs = self.manifest["outputs"]
        return {
            k: outputs[k]
            for k in (
                "train.src",
                "train.tgt",
                self.manifest["vocab"]["src_model"],
                self.manifest["vocab"]["tgt_model"],
            )
        }

    # --- the JSONL log ---

    def _append_log(self, record: dict[str, Any]) -> None:
        if self.dist.main:
            with open(self.out / LOG_FILE, "a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")

    def _trim_log(self) -> None:
        """Drop log lines past the step resumed from (an interrupted run logged beyond it)."""
        path = self.out / LOG_FILE
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            kept = [line for line in lines if json.loads(line)["step"] <= self.state.step]
            path.write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")


def check_resumable(saved: TrainConfig, now: TrainConfig) -> None:
    """Refuse to resume with settings that would change the steps already taken."""
    old, new = config_io.to_dict(saved), config_io.to_dict(now)
    changed = [k for k in old if k not in RESUMABLE_CHANGES and old[k] != new[k]]
    if changed:
        details = ", ".join(f"{k}: {old[k]!r} → {new[k]!r}" for k in changed)
        raise ValueError(
            f"cannot resume with a different training config ({details}); only "
            f"{', '.join(sorted(RESUMABLE_CHANGES))} may change"
        )


def train(cfg: TrainConfig, resume: str | Path | None = None) -> Path:
    """Train by ``cfg`` (continuing from checkpoint/run ``resume``); returns the run directory."""
    try:
        return Trainer(cfg, resume).run()
    finally:
        if torch_dist.is_initialized():
            torch_dist.destroy_process_group()

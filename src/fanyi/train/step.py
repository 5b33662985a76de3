"""One optimizer step (§5.3): the gradient of some token batches, the Noam rate, clipping, Adam.

The training loop, the copy-task demo and ``benchmarks/train_step.py`` all take their steps here.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel

from ..data import Batch
from .distributed import Distributed
from .loss import LabelSmoothingLoss
from .schedule import noam_lr


@dataclass(frozen=True)
class StepSettings:
    """The rate of eq. 3 (``lr_factor`` · d_model^−0.5 · …) and the gradient clipping."""

    d_model: int
    warmup: int
    lr_factor: float = 1.0
    clip_norm: float | None = 1.0  # max gradient L2 norm; None: no clipping


@dataclass
class StepResult:
    """What one step saw and did (its sums are this process's)."""

    loss: float  # label-smoothed loss, summed over target tokens
    nll: float
    tokens: int
    lr: float
    grad_norm: float


def adam(
    parameters: Iterable[nn.Parameter], betas: tuple[float, float] = (0.9, 0.98), eps: float = 1e-9
) -> torch.optim.Adam:
    """Adam as in §5.3 (β₁ = 0.9, β₂ = 0.98, ε = 1e-9); the rate is set at every step."""
    return torch.optim.Adam(parameters, lr=0.0, betas=betas, eps=eps)


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
    tokens = dist.sum(torch.tensor(float(sum(b.ntokens for b in batches))))
    scale = dist.world_size / tokens.item()
    stats = torch.zeros(3, dtype=torch.float64)
    for i, batch in enumerate(batches):
        batch = batch.to(dist.device)
        last = i == len(batches) - 1
        alone = last or dist.world_size == 1
        sync = contextlib.nullcontext() if alone else cast(DistributedDataParallel, model).no_sync()
        with sync:
            with autocast:
                log_probs = model(batch.src, batch.tgt_in)
            loss, nll = criterion(log_probs, batch.tgt_out)
            (loss * scale).backward()
        stats += torch.tensor([loss.item(), nll.item(), batch.ntokens], dtype=torch.float64)
    return stats


def optimizer_step(
    model: nn.Module, optimizer: torch.optim.Optimizer, settings: StepSettings, step: int
) -> tuple[float, float]:
    """Set the Noam rate of ``step`` (eq. 3), clip, update; returns (lr, gradient norm)."""
    lr = noam_lr(step, settings.d_model, settings.warmup, settings.lr_factor)
    for group in optimizer.param_groups:
        group["lr"] = lr
    norm = nn.utils.clip_grad_norm_(model.parameters(), settings.clip_norm or math.inf)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return lr, float(norm)


def train_step(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    criterion: LabelSmoothingLoss,
    batches: list[Batch],
    step: int,
    settings: StepSettings,
    autocast: Any = None,
    dist: Distributed | None = None,
) -> StepResult:
    """Optimizer step number ``step`` (from 1) on ``batches`` (several: gradient accumulation).

    ``autocast``: a ``torch.autocast`` context (default none); ``dist``: this process's place in
    a data-parallel job, ``model`` then being its DDP wrapper (default: a single CPU process).
    """
    autocast = contextlib.nullcontext() if autocast is None else autocast
    dist = Distributed() if dist is None else dist
    loss, nll, tokens = accumulate_gradients(model, criterion, batches, autocast, dist).tolist()
    lr, norm = optimizer_step(model, optimizer, settings, step)
    return StepResult(loss, nll, int(tokens), lr, norm)

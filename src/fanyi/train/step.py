"""One optimizer step (§5.3): the gradient of some token batches, the Noam rate, clipping, Adam.

The training loop, the copy-task demo and ``benchmarks/train_step.py`` all take their steps here.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel

from ..data import Batch
from .context import StepSettings, TrainContext
from .schedule import noam_lr


@dataclass
class StepResult:
    """What one step saw and did (its sums are this process's). The sums and the norm stay on the
    model's device until read: reading one waits for the GPU, so the loop reads them only when it
    logs (no host synchronisation per step)."""

    sums: torch.Tensor  # (label-smoothed loss, NLL, target tokens), float64, summed over tokens
    lr: float
    norm: torch.Tensor  # the gradient's L2 norm before clipping

    @property
    def loss(self) -> float:
        return float(self.sums[0])

    @property
    def nll(self) -> float:
        return float(self.sums[1])

    @property
    def tokens(self) -> int:
        return int(self.sums[2])

    @property
    def grad_norm(self) -> float:
        return float(self.norm)


def adam(
    parameters: Iterable[nn.Parameter], betas: tuple[float, float] = (0.9, 0.98), eps: float = 1e-9
) -> torch.optim.Adam:
    """Adam as in §5.3 (β₁ = 0.9, β₂ = 0.98, ε = 1e-9); the rate is set at every step. On a GPU
    the fused kernel updates every parameter in one launch."""
    parameters = list(parameters)
    fused = bool(parameters) and all(p.device.type == "cuda" for p in parameters)
    return torch.optim.Adam(parameters, lr=0.0, betas=betas, eps=eps, fused=fused or None)


def accumulate_gradients(ctx: TrainContext, batches: list[Batch]) -> torch.Tensor:
    """Backpropagate the loss of ``batches`` normalised by all their target tokens (all ranks).

    Each micro-batch adds loss_sum / total tokens, so accumulating two halves gives the
    gradient of the whole; DDP averages over ranks, hence the factor world_size. Returns the
    (loss sum, NLL sum, tokens) of this process, on its device.
    """
    dist, model = ctx.dist, ctx.stepped
    here = float(sum(b.ntokens for b in batches))
    if dist.world_size == 1:
        scale: float | torch.Tensor = 1.0 / here
    else:  # all ranks' tokens; kept on the device, no wait for the sum
        scale = dist.world_size / dist.sum(torch.tensor(here))
    stats = torch.zeros(3, dtype=torch.float64, device=dist.device)
    stats[2] = here
    for i, batch in enumerate(batches):
        batch = batch.to(dist.device, non_blocking=True)  # pinned (prefetch.py): no wait
        last = i == len(batches) - 1
        alone = last or dist.world_size == 1
        sync = contextlib.nullcontext() if alone else cast(DistributedDataParallel, model).no_sync()
        with sync:
            with ctx.autocast:
                log_probs = model(batch.src, batch.tgt_in)
            loss, nll = ctx.criterion(log_probs, batch.tgt_out)
            (loss * scale).backward()
        stats[:2] += torch.stack([loss.detach(), nll.detach()]).double()
    return stats


def optimizer_step(
    model: nn.Module, optimizer: torch.optim.Optimizer, settings: StepSettings, step: int
) -> tuple[float, torch.Tensor]:
    """Set the Noam rate of ``step`` (eq. 3), clip, update; returns (lr, gradient norm)."""
    lr = noam_lr(step, settings.d_model, settings.warmup, settings.lr_factor)
    for group in optimizer.param_groups:
        group["lr"] = lr
    norm = nn.utils.clip_grad_norm_(model.parameters(), settings.clip_norm or math.inf)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return lr, norm


def train_step(ctx: TrainContext, batches: list[Batch], step: int) -> StepResult:
    """Optimizer step number ``step`` (from 1) on ``batches`` (several: gradient accumulation).

    Nothing is read back to the host: the result's sums and norm stay on the device.
    """
    sums = accumulate_gradients(ctx, batches)
    lr, norm = optimizer_step(ctx.stepped, ctx.optimizer, ctx.settings, step)
    return StepResult(sums, lr, norm)

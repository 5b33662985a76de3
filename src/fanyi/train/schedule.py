"""The learning-rate schedule of §5.3 ("Noam")."""

from __future__ import annotations

from torch.optim import Optimizer
from torch.optim.lr_scheduler import LambdaLR


def noam_lr(step: int, d_model: int, warmup: int, factor: float = 1.0) -> float:
    """lrate = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5), eq. 3 (step ≥ 1)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)


def noam_scheduler(
    optimizer: Optimizer, d_model: int, warmup: int, factor: float = 1.0
) -> LambdaLR:
    """A scheduler that sets each step's rate by :func:`noam_lr`; the optimizer's lr must be 1."""
    for group in optimizer.param_groups:
        group["lr"] = 1.0
        group["initial_lr"] = 1.0
    # LambdaLR calls the function with the number of steps taken so far (0 first).
    return LambdaLR(optimizer, lambda taken: noam_lr(taken + 1, d_model, warmup, factor))

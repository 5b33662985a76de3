"""The learning-rate schedule of §5.3 ("Noam")."""

from __future__ import annotations


def noam_lr(step: int, d_model: int, warmup: int, factor: float = 1.0) -> float:
    """lrate = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5), eq. 3 (step ≥ 1)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)

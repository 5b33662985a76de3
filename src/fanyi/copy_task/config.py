"""The copy task's settings: the sequences, the training and the model (no torch: ``fanyi demo
--help`` lists them as flags)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class CopyTaskConfig:
    """The copy task: its random sequences, its training and its model (``fanyi demo``'s flags)."""

    symbols: int = 10
    min_len: int = 4
    max_len: int = 10
    batch_size: int = 64
    steps: int = 1000
    warmup: int = 100
    lr_factor: float = 0.25
    label_smoothing: float = 0.1
    # Unclipped, as the demo always learned: clipping at 1.0 slowed it to 82% copied after 1000
    # steps on two threads (100% on one).
    clip_norm: float | None = None
    seed: int = 0
    d_model: int = 64
    d_ff: int = 256
    h: int = 4
    N: int = 2

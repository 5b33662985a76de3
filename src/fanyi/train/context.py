"""What a step, validation, a save and a restore share: the model and how it learns (optimizer,
loss, rate), where it computes and in what (device, dtype), and its place in a job.

nanoGPT keeps these as the globals of one script; here they are one value handed to each
function of the loop (``train_step``, ``validate``, ``save``, ``restore``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from ..model import Transformer
from .distributed import Distributed
from .loss import LabelSmoothingLoss

DTYPES = ("fp32", "bf16")  # what the loop computes in; "auto" is chosen per host by fanyi.runtime


def check_dtype(dtype: str) -> str:
    """``dtype`` if the loop computes in it."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype {dtype!r}: fp32 or bf16 (fanyi.runtime chooses for auto)")
    return dtype


@dataclass(frozen=True)
class StepSettings:
    """The rate of eq. 3 (``lr_factor`` · d_model^−0.5 · …) and the gradient clipping."""

    d_model: int
    warmup: int
    lr_factor: float = 1.0
    clip_norm: float | None = 1.0  # max gradient L2 norm; None: no clipping


@dataclass
class TrainContext:
    """The model being trained and everything a step of it needs.

    ``forward`` is what a step calls when it is not the model itself: its DDP wrapper in a job
    (which averages the gradients), a ``torch.compile`` of it, or a benchmark's peer model.
    """

    model: Transformer  # what is validated, saved and restored
    optimizer: torch.optim.Optimizer
    criterion: LabelSmoothingLoss
    settings: StepSettings
    dist: Distributed  # rank, world size and the device
    dtype: str = "fp32"  # fp32, or bf16 under autocast (weights and optimizer stay fp32)
    forward: nn.Module | None = None

    def __post_init__(self) -> None:
        check_dtype(self.dtype)

    @property
    def device(self) -> torch.device:
        return self.dist.device

    @property
    def autocast(self) -> torch.autocast:
        """The autocast context of this dtype on this device (a no-op in fp32)."""
        bf16 = self.dtype == "bf16"
        return torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=bf16)

    @property
    def stepped(self) -> nn.Module:
        """The module a step runs: ``forward``, else the model."""
        return self.model if self.forward is None else self.forward

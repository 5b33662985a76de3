"""Training (§5): label smoothing, the Noam schedule, one optimizer step, validation, the loop.

config.py       TrainConfig: every setting of ``fanyi train``
loss.py         label-smoothed cross-entropy (§5.4)
schedule.py     the Noam learning rate (§5.3)
context.py      TrainContext: model, optimizer, loss, rate, device, dtype, place in a job
step.py         one optimizer step: accumulated gradients, the rate, clipping, Adam
distributed.py  this process's place in a torchrun job; its processes agree
validate.py     dev loss, greedy BLEU and chrF (a greedy search)
state.py        resume state: where training is, generator states, checks
checkpoint.py   save a checkpoint, restore a run from one, start from another model
log.py          the run's log.jsonl
trainer.py      the loop: batches, steps, validation, checkpoints, resume
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import TrainConfig
    from .context import TrainContext
    from .loss import LabelSmoothingLoss
    from .schedule import noam_lr
    from .step import StepSettings, train_step
    from .trainer import Trainer, train

# Each public name's module, imported on first use (PEP 562): importing one light module of
# this package (its options, its configs) imports none of the others, nor torch.
_HOMES = {
    "TrainConfig": ".config",
    "TrainContext": ".context",
    "LabelSmoothingLoss": ".loss",
    "noam_lr": ".schedule",
    "StepSettings": ".step",
    "train_step": ".step",
    "Trainer": ".trainer",
    "train": ".trainer",
}
__all__ = [
    "LabelSmoothingLoss",
    "StepSettings",
    "TrainConfig",
    "TrainContext",
    "Trainer",
    "noam_lr",
    "train",
    "train_step",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

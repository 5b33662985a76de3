"""Training: label smoothing (§5.4), the Noam schedule (§5.3), checkpoints, the training loop."""

from .checkpoint import (
    Checkpoint,
    average_checkpoints,
    load_model,
    load_training_state,
    read_checkpoint,
    read_index,
    resolve,
    write_model_dir,
)
from .config import TrainConfig
from .loss import LabelSmoothingLoss
from .schedule import noam_lr, noam_scheduler
from .trainer import Trainer, train

__all__ = [
    "Checkpoint",
    "LabelSmoothingLoss",
    "TrainConfig",
    "Trainer",
    "average_checkpoints",
    "load_model",
    "load_training_state",
    "noam_lr",
    "noam_scheduler",
    "read_checkpoint",
    "read_index",
    "resolve",
    "train",
    "write_model_dir",
]

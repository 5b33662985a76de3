"""Training: label smoothing (§5.4), the Noam schedule (§5.3), checkpoints, the training loop."""

from .loss import LabelSmoothingLoss
from .schedule import noam_lr, noam_scheduler

__all__ = ["LabelSmoothingLoss", "noam_lr", "noam_scheduler"]

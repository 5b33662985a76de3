"""The model must learn: the copy task, decoded greedily, on sequences it never saw."""

import pytest

from fanyi.copy_task import CopyTaskConfig, exact_match_rate, train_copy_model

pytestmark = pytest.mark.slow  # trains the copy task (about 1.5 minutes)


def test_copy_task_is_learned():
    cfg = CopyTaskConfig()
    model = train_copy_model(cfg)
    assert exact_match_rate(model, cfg, n=1000, seed=12345) >= 0.99

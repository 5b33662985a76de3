"""Label smoothing against a hand-computed case; the Noam schedule's values."""

import math

import pytest
import torch

from fanyi.train import LabelSmoothingLoss, noam_lr


def test_label_smoothing_hand_computed_case():
    # vocabulary of 4 with padding id 0; one real token of class 2, one padding position
    probs = torch.tensor([[[0.1, 0.2, 0.6, 0.1], [0.25, 0.25, 0.25, 0.25]]])
    target = torch.tensor([[2, 0]])
    loss, nll = LabelSmoothingLoss(0.1, pad_id=0)(probs.log(), target)
    # q = 0.9 on class 2 plus 0.1 spread evenly over the 3 non-padding classes
    expected = -(0.9 * math.log(0.6) + 0.1 / 3 * (math.log(0.2) + math.log(0.6) + math.log(0.1)))
    assert loss.item() == pytest.approx(expected, rel=1e-6)
    assert nll.item() == pytest.approx(-math.log(0.6), rel=1e-6)


def test_padding_contributes_nothing_and_no_smoothing_is_nll():
    torch.manual_seed(0)
    log_probs = torch.randn(2, 5, 7).log_softmax(-1)
    target = torch.randint(1, 7, (2, 5))
    target[1, 3:] = 0
    loss, nll = LabelSmoothingLoss(0.0, pad_id=0)(log_probs, target)
    expected = torch.nn.functional.nll_loss(
        log_probs.flatten(0, 1), target.flatten(), ignore_index=0, reduction="sum"
    )
    assert loss.item() == pytest.approx(expected.item(), rel=1e-6) and loss == nll
    changed = log_probs.clone()
    changed[1, 3:] = torch.randn(2, 7).log_softmax(-1)  # only padded positions change
    assert (
        LabelSmoothingLoss(0.1, 0)(changed, target)[0]
        == LabelSmoothingLoss(0.1, 0)(log_probs, target)[0]
    )


def test_noam_schedule_values():
    d_model, warmup = 512, 4000
    assert noam_lr(1, d_model, warmup) == pytest.approx(512**-0.5 * 4000**-1.5)
    peak = noam_lr(warmup, d_model, warmup)
    assert peak == pytest.approx(512**-0.5 * 4000**-0.5)
    assert noam_lr(warmup // 2, d_model, warmup) == pytest.approx(peak / 2)  # linear warm-up
    assert noam_lr(4 * warmup, d_model, warmup) == pytest.approx(peak / 2)  # inverse sqrt decay
    assert noam_lr(100, d_model, warmup, factor=2.0) == pytest.approx(
        2 * noam_lr(100, d_model, warmup)
    )

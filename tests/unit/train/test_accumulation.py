"""The training step: two half-batches give the gradient of the whole batch; a step sets the
Noam rate and clips."""

import pytest
import torch

from fanyi.data import collate
from fanyi.model import build_model
from fanyi.train import LabelSmoothingLoss, StepSettings, TrainContext, noam_lr, train_step
from fanyi.train.distributed import Distributed
from fanyi.train.step import accumulate_gradients, adam, optimizer_step
from tiny_model import tiny_config

CPU = Distributed(rank=0, world_size=1, device=torch.device("cpu"))


def _examples(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(1, 9, (n, 2), generator=g).tolist()
    return [
        (
            torch.randint(4, 40, (s,), generator=g).tolist(),
            torch.randint(4, 40, (t,), generator=g).tolist(),
        )
        for s, t in lengths
    ]


def _context(model, settings: StepSettings | None = None) -> TrainContext:
    settings = settings or StepSettings(d_model=model.config.d_model, warmup=4)
    return TrainContext(model, adam(model.parameters()), LabelSmoothingLoss(0.1, 0), settings, CPU)


def _gradients(model, batches) -> dict[str, torch.Tensor]:
    model.zero_grad(set_to_none=True)
    accumulate_gradients(_context(model), batches)
    return {name: p.grad.clone() for name, p in model.named_parameters()}


def test_two_half_batches_give_the_gradient_of_the_whole_batch():
    torch.manual_seed(0)
    model = build_model(tiny_config(40, tie_embeddings=True))
    examples = _examples(12, seed=1)
    whole = _gradients(model, [collate(examples)])
    # the halves are padded to their own (shorter) lengths: padding must not matter either
    halves = _gradients(model, [collate(examples[:5]), collate(examples[5:])])
    for name, grad in whole.items():
        torch.testing.assert_close(halves[name], grad, rtol=0, atol=1e-6, msg=name)


def test_the_step_uses_the_noam_rate_and_clips():
    torch.manual_seed(0)
    param = torch.nn.Parameter(torch.zeros(4))
    optimizer = torch.optim.Adam([param], lr=0.0, betas=(0.9, 0.98), eps=1e-9)
    param.grad = torch.full((4,), 10.0)
    settings = StepSettings(d_model=64, warmup=10, lr_factor=2.0, clip_norm=1.0)
    lr, norm = optimizer_step(torch.nn.ParameterList([param]), optimizer, settings, step=3)
    assert lr == noam_lr(3, 64, 10, 2.0) and norm == 20.0
    assert param.grad is None
    torch.testing.assert_close(param.detach(), torch.full((4,), -lr))  # Adam's first step: lr·sign


def test_a_whole_step_reports_its_loss_and_moves_the_parameters_by_the_rate():
    torch.manual_seed(0)
    model = build_model(tiny_config(40))
    batch = collate(_examples(8, seed=2))
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    ctx = _context(model, StepSettings(d_model=32, warmup=4, clip_norm=None))
    result = train_step(ctx, [batch], 1)
    loss, _ = ctx.criterion(model(batch.src, batch.tgt_in), batch.tgt_out)
    assert result.tokens == batch.ntokens and result.lr == noam_lr(1, 32, 4)
    assert result.loss > result.nll > 0 and result.grad_norm > 0
    moved = max((p.detach() - before[n]).abs().max().item() for n, p in model.named_parameters())
    assert moved == pytest.approx(result.lr, rel=1e-3)  # Adam's first step: lr·sign(gradient)
    assert loss.item() < result.loss  # the step lowered the loss of its own batch

"""A checkpoint trained on a GPU resumes on a CPU and the other way round: every tensor of a
model directory is read to the host (safetensors keep no device) and moved to where the model
is by ``load_state_dict``, the optimizer's state follows its parameters, and CUDA's generator
state is restored only where there is CUDA. The CUDA queries are mocked: this runs on a CPU."""

import pytest
import torch

from fanyi.train.state import (
    capture_rng,
    load_training_state,
    restore_rank_rng,
    write_training_state,
)
from tiny_model import tiny_model


def adam_state(model: torch.nn.Module) -> dict:
    """An Adam state after one step on ``model``."""
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model(torch.tensor([[5, 6, 3]]), torch.tensor([[2, 7]])).sum().backward()
    optimizer.step()
    return optimizer.state_dict()


def test_a_saved_state_is_read_to_the_host_whatever_the_default_device(tmp_path):
    write_training_state(tmp_path, {"optimizer": adam_state(tiny_model()), "step": 1})
    with torch.device("meta"):  # where new tensors would go: not where the state is read to
        state = load_training_state(tmp_path)
    tensors = [v for s in state["optimizer"]["state"].values() for v in s.values()]
    assert tensors and {t.device.type for t in tensors} == {"cpu"}


def test_the_optimizer_state_follows_its_parameters(tmp_path):
    """Loaded into parameters of another dtype (as into another device), each moment is cast to
    its parameter's by the same ``Optimizer.load_state_dict`` that moves it there."""
    write_training_state(tmp_path, {"optimizer": adam_state(tiny_model())})
    elsewhere = tiny_model().double()
    optimizer = torch.optim.Adam(elsewhere.parameters(), lr=1e-3)
    optimizer.load_state_dict(load_training_state(tmp_path)["optimizer"])
    for param, state in zip(elsewhere.parameters(), optimizer.state.values(), strict=True):
        assert state["exp_avg"].dtype == param.dtype and state["exp_avg"].device == param.device


def test_a_gpu_run_generators_resume_on_a_cpu(tmp_path, monkeypatch):
    rng = capture_rng()
    rng["torch"], rng["cuda"] = [rng["torch"]], [torch.zeros(16, dtype=torch.uint8)]  # one rank
    write_training_state(tmp_path, {"rng": rng})
    set_cuda = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "set_rng_state", set_cuda.append)
    restore_rank_rng(load_training_state(tmp_path)["rng"], 0, 1, seed=1, step=1)
    assert set_cuda == []


@pytest.mark.parametrize("cuda_now", [True, False])
def test_a_cpu_run_generators_resume_anywhere(tmp_path, monkeypatch, cuda_now):
    rng = capture_rng()
    rng.pop("cuda", None)
    rng["torch"] = [rng["torch"]]
    write_training_state(tmp_path, {"rng": rng})
    set_cuda = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda_now)
    monkeypatch.setattr(torch.cuda, "set_rng_state", set_cuda.append)
    before = torch.get_rng_state()
    restore_rank_rng(load_training_state(tmp_path)["rng"], 0, 1, seed=1, step=1)
    assert set_cuda == [] and torch.equal(torch.get_rng_state(), before)

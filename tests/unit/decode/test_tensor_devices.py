"""Every tensor that decoding and validation make follows the device of their inputs: each search
runs with ``meta`` as the device of tensors made without one (``foreign_device``), so a bare
``torch.arange(b)`` fails here on the CPU as it would on a GPU."""

import pytest
import torch

from fanyi.data import ParallelDataset
from fanyi.decode import SearchOptions, decode
from fanyi.decode.ensemble import Ensemble
from fanyi.decode.rerank import log_likelihoods
from fanyi.train import LabelSmoothingLoss, StepSettings, TrainContext
from fanyi.train.distributed import Distributed
from fanyi.train.step import adam
from fanyi.train.validate import dev_loss, dev_translations
from foreign_device import foreign_device
from tiny_model import tiny_model

SRC = torch.tensor([[5, 6, 7, 8, 3], [9, 10, 3, 0, 0], [11, 3, 0, 0, 0]])
SEARCHES = {
    "greedy": SearchOptions(beam=1),
    "beam": SearchOptions(beam=3),
    "n-best": SearchOptions(beam=3, n_best=3, attention=True),
    "greedy attention": SearchOptions(beam=1, attention=True),
    "sampling": SearchOptions(sampling=True, n_best=2, seed=1, top_k=5, top_p=0.9),
    "min_len": SearchOptions(beam=2, min_len=3, max_len_a=0.0, max_len_b=4),
    "workers": SearchOptions(beam=2),
}
WORKERS = {"workers": 2}  # the searches split across processes


def test_the_check_catches_a_tensor_made_without_a_device():
    with foreign_device(), pytest.raises(RuntimeError, match="meta"):
        torch.arange(3) + SRC[0, :3]


@pytest.mark.parametrize("name", SEARCHES)
def test_every_search_makes_its_tensors_on_the_input_device(name):
    model, config, workers = tiny_model(), SEARCHES[name], WORKERS.get(name, 1)
    expected = decode(model, SRC, config, workers=workers)
    with foreign_device():
        found = decode(model, SRC, config, workers=workers)
    assert [[h.tokens for h in hs] for hs in found] == [[h.tokens for h in hs] for hs in expected]


def test_long_sources_are_split_on_the_input_device():
    model = tiny_model(max_len=4)
    with foreign_device():
        found = decode(model, SRC, SearchOptions(beam=2, long_input="split"))
    assert len(found) == len(SRC)


def test_an_ensemble_decodes_on_the_input_device():
    ensemble = Ensemble([tiny_model(0), tiny_model(1)]).eval()
    with foreign_device():
        found = decode(ensemble, SRC, SearchOptions(beam=2))
        scores = log_likelihoods(ensemble, [[5, 6, 3], [7, 3]], [[8, 9], [10]])
    assert len(found) == len(SRC) and len(scores) == 2


def test_validation_runs_on_the_input_device():
    model = tiny_model()
    dev = ParallelDataset([[5, 6, 7, 3], [8, 9, 3]], [[10, 11], [12]])
    criterion, settings = LabelSmoothingLoss(0.1, model.config.pad_id), StepSettings(32, 4000)
    ctx = TrainContext(model, adam(model.parameters()), criterion, settings, Distributed())
    with foreign_device():
        translations = dev_translations(ctx, dev, None, max_tokens=64)
        metrics = dev_loss(ctx, dev, max_tokens=64)
    assert len(translations) == 2 and metrics["dev_loss"] > 0


def test_a_seeded_sample_draws_on_a_generator_of_the_input_device(monkeypatch):
    made, generator = [], torch.Generator

    def recorded(device=None):
        made.append(device)
        return generator(device or "cpu")

    monkeypatch.setattr(torch, "Generator", recorded)
    decode(tiny_model(), SRC, SearchOptions(sampling=True, seed=1))
    assert made == [SRC.device]

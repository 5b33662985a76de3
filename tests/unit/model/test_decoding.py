"""The protocol a search decodes with (``model.decoding.Model``): a Transformer and an ensemble
both keep it, so searches, rescoring and transforms never ask which one they hold."""

import inspect

import torch

from fanyi.decode.ensemble import Ensemble
from fanyi.model import Model, State
from fanyi.model.transformer import DecoderState
from tiny_model import tiny_model

SRC = torch.tensor([[5, 9, 12, 3], [8, 6, 3, 0]])


def _protocol_members(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")}


def test_a_transformer_and_an_ensemble_have_every_member_of_the_protocol():
    model = tiny_model(seed=1)
    for candidate in (model, Ensemble([model, tiny_model(seed=2)])):
        assert all(hasattr(candidate, name) for name in _protocol_members(Model))
        state = candidate.start_decoding(SRC, beams=2)
        assert all(callable(getattr(state, name)) for name in _protocol_members(State))
        hidden, _ = candidate.decode_step(SRC.new_full((4, 1), 2), state)
        assert candidate.generator.logits(hidden).shape == (4, 1, 40)


def test_a_transformer_is_its_own_one_member_and_maps_to_its_transform():
    model = tiny_model()
    assert model.members() == [model]
    assert model.map(lambda m: m.to(torch.float64)).generator.proj.weight.dtype == torch.float64
    assert isinstance(model.start_decoding(SRC), DecoderState)


def test_an_ensemble_maps_each_member():
    members = [tiny_model(seed=1), tiny_model(seed=2)]
    ensemble = Ensemble(members)
    assert ensemble.members() == members
    doubled = ensemble.map(lambda m: m.to(torch.float64))
    assert isinstance(doubled, Ensemble) and doubled is not ensemble
    assert all(p.dtype == torch.float64 for p in doubled.parameters())


def test_the_searches_take_any_model_of_the_protocol():
    """Their signatures name the protocol, never a concrete model class."""
    from fanyi.decode import beam, hypothesis, rerank, search

    functions = [
        search.decode,
        search.greedy_decode,
        search.sample,
        beam.beam_search,
        hypothesis.step_log_probs,
        rerank.log_likelihoods,
    ]
    for function in functions:
        annotation = str(inspect.signature(function).parameters["model"].annotation)
        assert annotation.startswith("Model"), (function.__name__, annotation)

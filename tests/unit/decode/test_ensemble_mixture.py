"""Ensembles: the mean of the members' distributions, step by step, in every search."""

from __future__ import annotations

import pytest
import torch

from fanyi.decode import SearchOptions, decode
from fanyi.decode.ensemble import Ensemble
from fanyi.decode.hypothesis import step_log_probs
from fanyi.decode.rerank import log_likelihoods
from fanyi.engines.dtype import prepare_model
from fanyi.model.inference.int8 import Int8Linear
from tiny_model import tiny_model

SRC = torch.tensor([[5, 9, 12, 7, 3], [8, 6, 3, 0, 0]])  # right-padded, EOS = 3
PREFIX = torch.tensor([[2, 11, 4, 17], [2, 9, 9, 21]])  # BOS = 2, then three tokens


def _members() -> list:
    """Two members that differ in everything but the vocabulary: seed, width, depth, norm."""
    return [tiny_model(seed=1), tiny_model(seed=2, d_model=48, N_dec=3, norm="pre")]


def _next_log_probs(model) -> torch.Tensor:
    """log P(next | PREFIX, SRC) of ``model`` by the whole-sequence forward (no cache)."""
    src_mask = model.source_mask(SRC)
    hidden, _ = model.decode(PREFIX, model.encode(SRC, src_mask), src_mask)
    return model.generator.logits(hidden[:, -1]).log_softmax(dim=-1)


@torch.no_grad()
def test_each_step_is_the_log_of_the_members_mean_probability():
    members = _members()
    ensemble = Ensemble(members)
    state = ensemble.start_decoding(SRC)
    for t in range(PREFIX.size(1)):
        log_probs, attention = step_log_probs(ensemble, PREFIX[:, t : t + 1], state, True)
    expected = torch.stack([_next_log_probs(m).exp() for m in members]).mean(dim=0).log()
    expected[:, 0] = float("-inf")  # padding is never a token of a translation
    torch.testing.assert_close(log_probs, expected, atol=1e-5, rtol=1e-5)
    assert attention is not None and attention.shape == SRC.shape
    assert torch.allclose(attention.sum(dim=-1), torch.ones(2))  # a mean of distributions


@torch.no_grad()
@pytest.mark.parametrize("beam", [1, 4])
def test_a_model_twice_searches_as_the_model_alone(beam):
    model = tiny_model(seed=4)
    config = SearchOptions(beam=beam, n_best=beam, max_len_a=0, max_len_b=12)
    alone = decode(model, SRC, config, 2, 3)
    twice = decode(Ensemble([model, model]), SRC, config, 2, 3)
    for a, b in zip(alone, twice, strict=True):
        assert [h.tokens for h in a] == [h.tokens for h in b]
        assert [h.log_prob for h in a] == pytest.approx([h.log_prob for h in b], abs=1e-4)


@torch.no_grad()
def test_the_backward_score_of_an_ensemble_is_its_search_s_own_log_probability():
    """log P(y | x) teacher forced, as reranking scores it, equals what beam search summed."""
    ensemble = Ensemble(_members())
    config = SearchOptions(beam=3, n_best=3, max_len_a=0, max_len_b=10, length_penalty=0)
    sources = [[5, 9, 12, 7, 3], [8, 6, 3]]
    found = [(s, h) for s in sources for h in decode(ensemble, torch.tensor([s]), config, 2, 3)[0]]
    got = log_likelihoods(ensemble, [s for s, _ in found], [h.tokens for _, h in found])
    assert got == pytest.approx([h.log_prob for _, h in found], abs=1e-4)


@pytest.mark.parametrize("dtype", ["bf16", "int8"])
def test_dtype_copies_convert_every_member(dtype):
    ensemble = Ensemble(_members())
    prepared = prepare_model(ensemble, dtype)
    assert isinstance(prepared, Ensemble) and prepared is not ensemble
    converted = [type(m.decoder.layers[0].feed_forward.w_1) for m in prepared.members()]
    if dtype == "int8":
        assert all(kind is Int8Linear for kind in converted)
    else:
        assert all(p.dtype == torch.bfloat16 for p in prepared.parameters())
    hypotheses = decode(prepared, SRC, SearchOptions(beam=2, max_len_b=8), 2, 3)
    assert len(hypotheses) == 2 and all(h[0].tokens is not None for h in hypotheses)


def test_members_must_share_vocabularies_and_special_ids():
    with pytest.raises(ValueError, match="src_vocab_size, tgt_vocab_size"):
        Ensemble([tiny_model(vocab=40), tiny_model(vocab=41)])
    with pytest.raises(ValueError, match="eos_id"):
        Ensemble([tiny_model(), tiny_model(eos_id=5)])
    with pytest.raises(ValueError, match="at least two"):
        Ensemble([tiny_model()])

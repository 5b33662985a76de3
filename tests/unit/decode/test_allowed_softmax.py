"""``allowed_softmax``: the output projection onto the allowed pieces only, the softmax
normalised over them (decode/allowed.py). Its log-probabilities are the full model's with the
refused logits set to -inf before the softmax, in every form a model decodes in, and a search
with it finds what a search on such a masked model finds."""

from __future__ import annotations

import pytest
import torch
from torch import Tensor, nn

from fanyi.decode import SearchOptions, SearchTask, decode
from fanyi.decode.allowed import KEPT, allowed_output, log_probs_over
from fanyi.decode.ensemble import Ensemble
from fanyi.decode.held_batch import constrained_searches
from fanyi.decode.hypothesis import piece_bias
from fanyi.engines.dtype import prepare_model
from fanyi.model import Transformer
from fanyi.model.inference import packed_float32, quantize_int8
from tiny_model import peaked_model, tiny_model

SRC = torch.tensor([[5, 9, 12, 7, 3], [8, 6, 3, 0, 0], [30, 31, 3, 0, 0]])  # EOS = 3
SUPPRESSED = [4, 7, 11, 12, 20, 21, 22, 35, 38]
PAD = 0
FORMS = {
    "fp32": lambda m: m,
    "packed": packed_float32,
    "int8": quantize_int8,
    "ensemble": lambda m: Ensemble([m, tiny_model(seed=5, d_model=48, norm="pre")]),
}


def _masked(log_probs_of: Tensor, refused: list[int]) -> Tensor:
    """The reference: logits of the refused pieces set to -inf, then the softmax."""
    return log_probs_of.index_fill(1, torch.tensor(refused), float("-inf")).log_softmax(dim=-1)


@pytest.mark.parametrize("form", list(FORMS))
@torch.no_grad()
def test_log_probs_are_the_full_model_s_renormalised_over_the_allowed_pieces(form):
    model = FORMS[form](tiny_model(seed=1))
    hidden = torch.randn(6, sum(getattr(model.generator, "widths", [32])))
    refused = [*SUPPRESSED, PAD]
    allowed = allowed_output(model.generator, torch.tensor(refused), 40)
    if form == "ensemble":  # each member masked before its softmax, then mixed
        parts = hidden.split(model.generator.widths, dim=-1)
        members = [
            _masked(g.logits(x), refused)
            for g, x in zip(model.generator.generators, parts, strict=True)
        ]
        expected = torch.stack(members).exp().mean(dim=0).log()
    else:
        expected = _masked(model.generator.logits(hidden).float(), refused)
    torch.testing.assert_close(log_probs_over(allowed, hidden), expected, atol=1e-5, rtol=1e-5)
    assert allowed.ids.tolist() == sorted(set(range(40)) - set(refused))


def test_the_restricted_layer_is_built_once_per_layer_and_allowed_set():
    model = packed_float32(tiny_model(seed=1))
    first = allowed_output(model.generator, torch.tensor([4, 7, PAD]), 40)
    assert allowed_output(model.generator, torch.tensor([7, 4, PAD]), 40).layer is first.layer
    assert allowed_output(model.generator, torch.tensor([4, PAD]), 40).layer is not first.layer
    for suppressed in range(5, 5 + KEPT):  # as many other sets as are kept: the first goes
        allowed_output(model.generator, torch.tensor([suppressed, PAD]), 40)
    assert allowed_output(model.generator, torch.tensor([4, 7, PAD]), 40).layer is not first.layer


class MaskedGenerator(nn.Module):
    """A generator whose refused logits are -inf before the search's softmax."""

    def __init__(self, generator: nn.Module, refused: list[int]) -> None:
        super().__init__()
        self.generator, self.refused = generator, torch.tensor(refused)

    def logits(self, x: Tensor) -> Tensor:
        return self.generator.logits(x).index_fill(-1, self.refused, float("-inf"))


def _masked_model(model: Transformer, refused: list[int]) -> Transformer:
    masked = prepare_model(model, "fp32")
    masked.generator = MaskedGenerator(masked.generator, refused)
    return masked


@pytest.mark.parametrize("beam", [1, 4])
def test_a_search_finds_what_it_finds_on_the_masked_model(beam):
    model = peaked_model()
    options = {"beam": beam, "n_best": beam, "length_penalty": 1.0}
    found = decode(
        model, SRC, SearchOptions(suppress_ids=SUPPRESSED, allowed_softmax=True, **options)
    )
    reference = decode(_masked_model(model, [*SUPPRESSED, PAD]), SRC, SearchOptions(**options))
    for ours, theirs in zip(found, reference, strict=True):
        assert [h.tokens for h in ours] == [h.tokens for h in theirs]
        assert [h.log_prob for h in ours] == pytest.approx([h.log_prob for h in theirs], abs=1e-4)
        assert not {t for h in ours for t in h.tokens} & set(SUPPRESSED)


def test_a_penalty_still_applies_and_nothing_changes_without_suppressed_pieces():
    model = peaked_model()
    penalised = {"script_penalty": 1.5, "penalized_ids": [5, 6]}
    plain = decode(model, SRC, SearchOptions(**penalised))
    same = decode(model, SRC, SearchOptions(allowed_softmax=True, **penalised))
    assert [h[0].tokens for h in same] == [h[0].tokens for h in plain]
    assert [h[0].log_prob for h in same] == [h[0].log_prob for h in plain]  # no renormalising
    both = SearchOptions(suppress_ids=SUPPRESSED, allowed_softmax=True, **penalised)
    bias = piece_bias(model, both, SRC, None)
    assert bias is not None and bias.row is not None and bias.allowed is not None
    assert bias.row[[5, 6]].tolist() == [-1.5, -1.5] and bias.row.count_nonzero() == 2


@pytest.mark.parametrize("beam", [1, 4])
def test_a_held_search_finds_what_it_finds_on_the_masked_model(beam):
    """Sources held to phrases, searched together: each is normalised over its own allowed
    pieces, its phrases' pieces among them though suppressed (7 and 20 here)."""
    model = peaked_model()
    phrases = [[[[7, 5]]], [[[20]], [[6]]], [[[9, 10]]]]
    options = {"beam": beam, "n_best": beam, "length_penalty": 1.0, "max_len_b": 8}
    restricted = SearchOptions(suppress_ids=SUPPRESSED, allowed_softmax=True, **options)
    found = constrained_searches(model, SearchTask(SRC, restricted, 2, 3), phrases)
    for j, held in enumerate(phrases):
        spelt = {i for phrase in held for form in phrase for i in form}
        refused = [i for i in [*SUPPRESSED, PAD] if i not in spelt]
        masked = _masked_model(model, refused)
        src = SRC[j : j + 1, : int((SRC[j] != PAD).sum())]
        task = SearchTask(src, SearchOptions(**options), 2, 3)
        reference = constrained_searches(masked, task, [held])[0]
        assert [h.tokens for h in found[j]] == [h.tokens for h in reference]
        assert [h.log_prob for h in found[j]] == pytest.approx(
            [h.log_prob for h in reference], abs=1e-4
        )

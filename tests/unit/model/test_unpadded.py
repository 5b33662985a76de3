"""The encoder's position-wise parts skip padding without gradients on a CPU
(``model/unpadded.py``): the same memory at every token as with every position computed, zeros
at padding, and the same translations."""

import pytest
import torch

from fanyi.decode import SearchOptions, decode
from fanyi.model import transformer
from fanyi.model.masks import padding_mask
from fanyi.model.unpadded import Unpadded
from tiny_model import peaked_model, tiny_model

BOS, EOS = 2, 3


def ragged_sources() -> torch.Tensor:
    """Four sources of 3, 9, 6 and 9 tokens, right-padded."""
    src = torch.randint(4, 40, (4, 9), generator=torch.Generator().manual_seed(3))
    src[0, 3:] = 0
    src[2, 6:] = 0
    return src


def test_unpad_keeps_the_tokens_in_order_and_pad_puts_them_back():
    src = ragged_sources()
    tokens = Unpadded(padding_mask(src, 0))
    x = torch.randn(4, 9, 5)
    rows = tokens.unpad(x)
    assert rows.shape == (27, 5)
    assert torch.equal(rows[:3], x[0, :3]) and torch.equal(rows[3:12], x[1])
    back = tokens.pad(rows)
    assert torch.equal(back[src != 0], x[src != 0])
    assert not back[src == 0].any()


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_the_memory_of_every_token_is_that_of_the_padded_batch(norm):
    model, src = tiny_model(norm=norm), ragged_sources()
    mask = model.source_mask(src)
    with torch.no_grad():
        unpadded = model.encode(src, mask)
    padded = model.encode(src, mask).detach()  # with gradients: every position computed
    tokens = src != 0
    torch.testing.assert_close(unpadded[tokens], padded[tokens], atol=1e-5, rtol=1e-5)
    assert not unpadded[~tokens].any() and padded[~tokens].abs().sum() > 0


@pytest.mark.parametrize("beam", [1, 3])
def test_translations_are_those_of_the_padded_encoder(beam, monkeypatch):
    model, src = peaked_model(), ragged_sources()
    config = SearchOptions(beam=beam, n_best=beam, max_len_a=0.0, max_len_b=10)
    batches = []
    monkeypatch.setattr(
        transformer, "Unpadded", lambda mask: batches.append(mask) or Unpadded(mask)
    )
    got = decode(model, src, config, BOS, EOS)
    monkeypatch.setattr(torch, "is_grad_enabled", lambda: True)  # the padded path
    expected = decode(model, src, config, BOS, EOS)
    assert len(batches) == 1  # the first search skipped the padding, the second did not
    for want, have in zip(expected, got, strict=True):
        assert [h.tokens for h in have] == [h.tokens for h in want]
        assert [h.score for h in have] == pytest.approx([h.score for h in want], abs=1e-4)

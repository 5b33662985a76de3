"""top_k (blocked) against torch.topk."""

from __future__ import annotations

import pytest
import torch

from fanyi.decode.top_k import top_k


@pytest.mark.parametrize("vocab", [8000, 96, 1000, 7919])  # blocks of 64, 32, 16 (1000), none
@pytest.mark.parametrize("k", [1, 2, 8, 10])
def test_equals_torch_topk(vocab: int, k: int) -> None:
    g = torch.Generator().manual_seed(vocab + k)
    scores = torch.randn(37, vocab, generator=g).log_softmax(dim=-1)
    values, indices = top_k(scores, k)
    expected = scores.topk(k, dim=-1)
    assert torch.equal(values, expected.values)
    assert torch.equal(indices, expected.indices)


def test_best_scores_crowded_in_one_block() -> None:
    """The k best all in one block, the other blocks' maxima just below them."""
    scores = torch.zeros(2, 640)
    scores[:, ::64] = 99.5  # every block's first score is high, below block 1's best 63
    scores[:, 64:128] = torch.arange(64.0) + 100  # block 1 holds the 64 best
    values, indices = top_k(scores, 8)
    assert torch.equal(indices, scores.topk(8, dim=-1).indices)
    assert values[0].tolist() == list(range(163, 155, -1))


def test_rows_with_minus_infinity() -> None:
    """A row where only one token is allowed (the length limit: EOS only) still finds it."""
    scores = torch.randn(3, 256)
    scores[1] = float("-inf")
    scores[1, 200] = -3.0
    values, indices = top_k(scores, 4)
    assert indices[1, 0] == 200 and values[1, 0] == -3.0
    assert torch.isinf(values[1, 1:]).all()
    assert torch.equal(values[[0, 2]], scores[[0, 2]].topk(4, dim=-1).values)


def test_strided_scores_fall_back() -> None:
    scores = torch.randn(256, 6).t()  # 6 x 256, not contiguous
    assert torch.equal(top_k(scores, 3)[1], scores.topk(3, dim=-1).indices)

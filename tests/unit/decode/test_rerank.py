"""Reranking by the backward score: teacher-forced log-likelihoods and the reranked order."""

from __future__ import annotations

import pytest
import torch

from fanyi.decode import SearchOptions, decode
from fanyi.decode.hypothesis import Cancelled, Hypothesis
from fanyi.decode.rerank import log_likelihoods, rerank
from tiny_model import tiny_model


def test_log_likelihoods_equal_the_search_s_own_step_by_step_sums():
    """log P(y | x) of a decoded y, the whole target at once, batched with padding of any length,
    equals the sum the beam search kept step by step."""
    model = tiny_model(seed=3)
    g = torch.Generator().manual_seed(0)
    sources = [[*torch.randint(4, 40, (n,), generator=g).tolist(), 3] for n in (2, 9, 5, 13)]
    config = SearchOptions(beam=3, n_best=3, max_len_a=0, max_len_b=12, length_penalty=0)
    found = []
    for ids in sources:  # one at a time: no padding in the search
        found.extend((ids, h) for h in decode(model, torch.tensor([ids]), config, 2, 3)[0])
    expected = [h.log_prob for _, h in found]
    for batch_tokens in (4096, 30):  # one batch, and many small ones
        got = log_likelihoods(
            model, [s for s, _ in found], [h.tokens for _, h in found], batch_tokens
        )
        assert got == pytest.approx(expected, abs=1e-4)


def _hyp(score: float) -> Hypothesis:
    return Hypothesis([int(score * 10) % 7], score, score)


def test_rerank_orders_by_score_plus_weighted_backward_per_source_token():
    hypotheses = [[_hyp(-1.0), _hyp(-1.2), _hyp(-1.5)], [_hyp(-0.5), _hyp(-0.6)]]
    backward = [[-9.0, -3.0, -3.3], [-2.0, -2.2]]
    lengths = [2, 1]  # |x|: backward / (|x| + 1) = -3, -1, -1.1 and -1, -1.1
    assert rerank(hypotheses, backward, lengths, 0.0, 3) == hypotheses  # λ 0: the beam's order
    ranked = rerank(hypotheses, backward, lengths, 1.0, 2)  # -4, -2.2, -2.6 and -1.5, -1.7
    assert [[h.score for h in hyps] for hyps in ranked] == [[-1.2, -1.5], [-0.5, -0.6]]
    ranked = rerank(hypotheses, backward, lengths, 1.0, 1)
    assert [[h.score for h in hyps] for hyps in ranked] == [[-1.2], [-0.5]]


def test_rerank_weight_must_not_be_negative():
    with pytest.raises(ValueError, match="rerank_backward"):
        SearchOptions(rerank_backward=-1)


def test_the_hook_runs_before_each_batch_and_may_cancel():
    """The server's turns and cancellation reach the reranking pass, batch by batch."""
    model = tiny_model(seed=3)
    sources, targets = [[5, 6, 7, 3]] * 6, [[8, 9]] * 6  # 7 padded tokens a pair
    calls = []
    log_likelihoods(model, sources, targets, 14, lambda: calls.append(1))  # 2 pairs a batch
    assert len(calls) == 3

    def cancel() -> None:
        raise Cancelled

    with pytest.raises(Cancelled):
        log_likelihoods(model, sources, targets, 14, cancel)

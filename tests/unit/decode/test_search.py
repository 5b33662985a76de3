"""Searches on a real (random) Transformer: beam search and its attention equal a reference that
re-runs the whole decoder without a cache, batching never changes results, beam 1 is greedy,
sampling is reproducible and stays in its top-k / top-p support, long inputs, parallel workers,
a step hook that runs before every step and can cancel the search."""

import itertools

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from fanyi.decode import (
    Cancelled,
    SearchOptions,
    SearchTask,
    beam_search,
    decode,
    greedy_decode,
    greedy_search,
    length_penalty,
    sample,
)
from fanyi.decode import search as search_module
from fanyi.decode.search import nucleus
from tiny_model import tiny_model

BOS, EOS, V = 2, 3, 16


def peaked_model(max_len: int = 64) -> torch.nn.Module:
    model = tiny_model(0, vocab=V, max_len=max_len)
    with torch.no_grad():  # a peaked output layer, so that EOS comes and ties are rare
        model.generator.proj.weight.mul_(4.0)
    return model.double()  # float64: padding changes nothing at the precision compared


MODEL = peaked_model()


def padded(rows: list[list[int]]) -> torch.Tensor:
    out = torch.zeros(len(rows), max(map(len, rows)), dtype=torch.long)
    for i, row in enumerate(rows):
        out[i, : len(row)] = torch.tensor(row)
    return out


def assert_same_results(first, second) -> None:
    """Tokens equal exactly, scores within a tolerance: the order in which a host's kernels sum
    (AVX2, AVX-512, AMX) depends on the batch's shape, so scores may differ in the last bits."""
    assert [[h.tokens for h in hyps] for hyps in first] == [
        [h.tokens for h in hyps] for hyps in second
    ]
    for hyps_a, hyps_b in zip(first, second, strict=True):
        scores_b = [h.score for h in hyps_b]
        assert [h.score for h in hyps_a] == pytest.approx(scores_b, rel=1e-6, abs=1e-9)


def reference_beam(
    source: list[int], k: int, alpha: float, limit: int
) -> list[tuple[list[int], float]]:
    """Beam search as beam.py describes it, for one source, with no cache and no batch: every
    step re-runs the whole decoder on each live prefix. The n-best (tokens, score), best first."""
    src = torch.tensor([source])
    live: list[tuple[tuple[int, ...], float]] = [((), 0.0)]
    finished: list[tuple[float, list[int]]] = []
    for step in itertools.count():
        candidates = []
        for prefix, log_p in live:
            with torch.no_grad():
                log_probs = MODEL(src, torch.tensor([[BOS, *prefix]]))[0, -1].tolist()
            allowed = [EOS] if step >= limit else range(1, V)  # padding (0) is never generated
            candidates += [(log_p + log_probs[t], prefix, t) for t in allowed]
        candidates = sorted(candidates, key=lambda c: -c[0])[: 2 * k]
        for log_p, prefix, token in candidates[:k]:
            if token == EOS:
                finished.append((log_p / length_penalty(len(prefix) + 1, alpha), list(prefix)))
        live = [((*prefix, t), log_p) for log_p, prefix, t in candidates if t != EOS][:k]
        if len(finished) >= k or step >= limit:
            return [(tokens, score) for score, tokens in sorted(finished, reverse=True)[:k]]
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("beam", "alpha"), [(2, 0.6), (4, 0.0), (4, 1.0)])
def test_cached_beam_search_equals_the_uncached_reference(beam, alpha):
    """Beams are reordered and finished sources dropped at every step (``DecoderState.reorder``
    and ``select``): a cache that followed the wrong rows would change tokens and scores."""
    rows = [[5, 6, 7, 8, 9], [9, 4], [12, 13, 14], [7, 7, 10, 11, 12, 13, 4], [8]]
    config = SearchOptions(beam=beam, n_best=beam, length_penalty=alpha, max_len_a=0, max_len_b=8)
    result = beam_search(MODEL, SearchTask(padded(rows), config, BOS, EOS))
    for row, hyps in zip(rows, result, strict=True):
        expected = reference_beam(row, beam, alpha, limit=8)
        assert [h.tokens for h in hyps] == [tokens for tokens, _ in expected]
        # equal up to float32 rounding: the cached step scales Q Kᵀ inside its batched product
        assert [h.score for h in hyps] == pytest.approx([score for _, score in expected], rel=1e-6)


@pytest.mark.parametrize("beam", [1, 3])
def test_each_hypothesis_carries_its_own_cross_attention(beam):
    """The attention kept per hypothesis equals the last layer's head-mean cross-attention of the
    whole decoder re-run on that hypothesis alone."""
    rows = [[5, 6, 7, 8, 9], [9, 4], [12, 13, 14]]
    config = SearchOptions(beam=beam, n_best=beam, max_len_b=6, attention=True)
    for row, hyps in zip(rows, decode(MODEL, padded(rows), config, BOS, EOS), strict=True):
        src = torch.tensor([row])
        for hyp in hyps:
            with torch.no_grad():
                tgt = torch.tensor([[BOS, *hyp.tokens]])
                _, weights = MODEL.decode(tgt, MODEL.encode(src), None, need_weights=True)
            expected = weights[-1][0].mean(dim=0)  # (tokens + EOS) x source
            assert hyp.attention.shape == expected.shape
            torch.testing.assert_close(hyp.attention.double(), expected, rtol=0, atol=1e-6)


sources = st.lists(st.lists(st.integers(4, V - 1), min_size=1, max_size=9), min_size=1, max_size=6)


@settings(max_examples=12, deadline=None)
@given(rows=sources, beam=st.sampled_from([1, 3]), batch=st.integers(1, 4))
def test_results_do_not_depend_on_batching(rows, beam, batch):
    config = SearchOptions(beam=beam, n_best=beam, max_len_a=1.0, max_len_b=3)
    one_by_one = [decode(MODEL, padded([r]), config, BOS, EOS)[0] for r in rows]
    batched = []
    for i in range(0, len(rows), batch):
        batched += decode(MODEL, padded(rows[i : i + batch]), config, BOS, EOS)
    assert_same_results(batched, one_by_one)


def test_beam_one_equals_greedy():
    src = padded([[5, 6, 7, 8], [9, 4], [12, 13, 14, 15, 4, 5, 6]])
    config = SearchOptions(beam=1, max_len_b=8)
    beam = beam_search(MODEL, SearchTask(src, config, BOS, EOS))
    greedy = greedy_decode(MODEL, SearchTask(src, config, BOS, EOS))
    assert [h[0].tokens for h in beam] == [h[0].tokens for h in greedy]
    fixed_length = SearchOptions(beam=1, max_len_a=0, max_len_b=10)
    fixed = greedy_decode(MODEL, SearchTask(src, fixed_length, BOS, EOS))
    assert [h[0].tokens for h in fixed] == greedy_search(MODEL, src, BOS, EOS, max_len=10)


def test_workers_give_the_same_results(monkeypatch):
    """``workers`` splits the batch (its default, 1, does not); the parts really go to the
    workers' processes."""
    parts = []
    monkeypatch.setattr(search_module, "in_parallel", spy(search_module.in_parallel, parts))
    src = padded([[5, 6, 7, 8], [9, 4], [12, 13, 14, 15, 4], [7], [8, 9, 10]])
    for beam in (1, 3):
        one = decode(MODEL, src, SearchOptions(beam=beam), BOS, EOS)
        two = decode(MODEL, src, SearchOptions(beam=beam), BOS, EOS, workers=2)
        assert_same_results(one, two)
    assert parts == [2, 2]  # one split in two per search with workers, none without


def spy(in_parallel, calls: list):
    """``in_parallel`` that records how many workers each call split the batch across."""

    def recorded(search, model, task, workers):
        calls.append(workers)
        return in_parallel(search, model, task, workers)

    return recorded


def test_sampling_is_reproducible_with_a_seed_and_gives_n_samples():
    src = padded([[5, 6, 7], [9, 4]])
    config = SearchOptions(sampling=True, n_best=3, seed=7, max_len_b=6)
    task = SearchTask(src, config, BOS, EOS)
    first, second = sample(MODEL, task), sample(MODEL, task)
    assert_same_results(first, second)
    assert [len(hyps) for hyps in first] == [3, 3]


def test_top_k_one_is_greedy():
    src = padded([[5, 6, 7], [9, 4], [10, 11, 12, 13]])
    config = SearchOptions(sampling=True, top_k=1, seed=1, max_len_b=6)
    sampled = sample(MODEL, SearchTask(src, config, BOS, EOS))
    greedy = greedy_decode(MODEL, SearchTask(src, SearchOptions(beam=1, max_len_b=6), BOS, EOS))
    assert [h[0].tokens for h in sampled] == [h[0].tokens for h in greedy]


def test_top_k_and_top_p_restrict_the_support():
    src = padded([[5, 6, 7]])
    with torch.no_grad():
        state = MODEL.start_decoding(src)
        hidden, _ = MODEL.decode_step(torch.tensor([[BOS]]), state)
        first = MODEL.generator.logits(hidden[:, -1]).log_softmax(-1)[0]
    ranked = first.argsort(descending=True).tolist()
    probs = first.exp()[ranked]
    n_nucleus = int((probs.cumsum(0) < 0.6).sum()) + 1  # smallest prefix reaching 0.6
    for options, allowed in [({"top_k": 2}, ranked[:2]), ({"top_p": 0.6}, ranked[:n_nucleus])]:
        config = SearchOptions(sampling=True, n_best=40, seed=3, max_len_b=1, **options)
        found = sample(MODEL, SearchTask(src, config, BOS, EOS))[0]
        firsts = {h.tokens[0] if h.tokens else EOS for h in found}
        assert firsts <= set(allowed)


def test_nucleus_keeps_the_smallest_set_reaching_p():
    logits = torch.tensor([[0.15, 0.5, 0.05, 0.3]]).log()
    kept = nucleus(logits, 0.7).isfinite()[0].tolist()
    assert kept == [False, True, False, True]
    assert nucleus(logits, 0.8).isfinite()[0].tolist() == [False, True, False, True]
    assert nucleus(logits, 0.81).isfinite()[0].tolist() == [True, True, False, True]


def test_long_input_raises_a_clear_error_or_is_split():
    model = peaked_model(max_len=12)
    src = padded([[5] * 20, [6, 7]])
    with pytest.raises(ValueError, match="long_input='split'"):
        decode(model, src, SearchOptions(beam=2, long_input="error"), BOS, EOS)
    result = decode(model, src, SearchOptions(beam=2, max_len_b=3), BOS, EOS)  # split: the default
    assert len(result) == 2 and all(len(h) == 1 for h in result)
    short = decode(model, padded([[6, 7]]), SearchOptions(beam=2, max_len_b=3), BOS, EOS)
    assert result[1][0].tokens == short[0][0].tokens


class StopAfter:
    """A step hook that counts its calls and cancels the search at call ``limit``."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit, self.calls = limit, 0

    def __call__(self) -> None:
        self.calls += 1
        if self.calls == self.limit:
            raise Cancelled


@pytest.mark.parametrize(
    ("config", "workers"),
    [
        (SearchOptions(beam=1, min_len=8, max_len_a=0, max_len_b=8), 1),
        (SearchOptions(beam=3, min_len=8, max_len_a=0, max_len_b=8), 1),
        (SearchOptions(sampling=True, n_best=2, seed=1, min_len=8, max_len_a=0, max_len_b=8), 1),
        (SearchOptions(beam=2, min_len=8, max_len_a=0, max_len_b=8), 2),
    ],
    ids=["greedy", "beam", "sampling", "workers"],
)
def test_the_step_hook_runs_before_each_step_and_can_cancel(config, workers):
    src = padded([[5, 6, 7], [8, 9]])
    count = StopAfter()
    decode(MODEL, src, config, BOS, EOS, between_steps=count, workers=workers)
    if workers == 1:
        assert count.calls == 9  # exactly 8 tokens, then EOS: nine steps
    with pytest.raises(Cancelled):
        decode(MODEL, src, config, BOS, EOS, between_steps=StopAfter(limit=1), workers=workers)
    assert decode(MODEL, src, config, BOS, EOS, workers=workers) is not None  # a fresh pool

"""Searches on a real (random) Transformer: batching never changes results, beam 1 is greedy,
sampling is reproducible and stays in its top-k / top-p support, long inputs, parallel workers."""

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from fanyi.decode import DecodeConfig, beam_search, decode, greedy_decode, greedy_search, sample
from fanyi.decode.search import nucleus
from fanyi.model import ModelConfig, build_model

BOS, EOS, V = 2, 3, 16


def tiny_model(max_len: int = 64) -> torch.nn.Module:
    torch.manual_seed(0)
    config = ModelConfig(
        src_vocab_size=V,
        tgt_vocab_size=V,
        d_model=32,
        d_ff=64,
        h=4,
        N_enc=2,
        N_dec=2,
        max_len=max_len,
    )
    model = build_model(config).eval()
    with torch.no_grad():  # a peaked output layer, so that EOS comes and ties are rare
        model.generator.proj.weight.mul_(4.0)
    return model.double()  # float64: padding changes nothing at the precision compared


MODEL = tiny_model()


def padded(rows: list[list[int]]) -> torch.Tensor:
    out = torch.zeros(len(rows), max(map(len, rows)), dtype=torch.long)
    for i, row in enumerate(rows):
        out[i, : len(row)] = torch.tensor(row)
    return out


def as_lists(result):
    return [[(h.tokens, round(h.score, 8)) for h in hyps] for hyps in result]


sources = st.lists(st.lists(st.integers(4, V - 1), min_size=1, max_size=9), min_size=1, max_size=6)


@settings(max_examples=12, deadline=None)
@given(rows=sources, beam=st.sampled_from([1, 3]), batch=st.integers(1, 4))
def test_results_do_not_depend_on_batching(rows, beam, batch):
    config = DecodeConfig(beam=beam, n_best=beam, max_len_a=1.0, max_len_b=3)
    one_by_one = [as_lists(decode(MODEL, padded([r]), config, BOS, EOS))[0] for r in rows]
    batched = []
    for i in range(0, len(rows), batch):
        batched += as_lists(decode(MODEL, padded(rows[i : i + batch]), config, BOS, EOS))
    assert batched == one_by_one


def test_beam_one_equals_greedy():
    src = padded([[5, 6, 7, 8], [9, 4], [12, 13, 14, 15, 4, 5, 6]])
    config = DecodeConfig(beam=1, max_len_b=8)
    beam = beam_search(MODEL, src, config, BOS, EOS)
    greedy = greedy_decode(MODEL, src, config, BOS, EOS)
    assert [h[0].tokens for h in beam] == [h[0].tokens for h in greedy]
    fixed = greedy_decode(MODEL, src, DecodeConfig(beam=1, max_len_a=0, max_len_b=10), BOS, EOS)
    assert [h[0].tokens for h in fixed] == greedy_search(MODEL, src, BOS, EOS, max_len=10)


def test_workers_give_the_same_results():
    src = padded([[5, 6, 7, 8], [9, 4], [12, 13, 14, 15, 4], [7], [8, 9, 10]])
    for beam in (1, 3):
        one = decode(MODEL, src, DecodeConfig(beam=beam), BOS, EOS)
        two = decode(MODEL, src, DecodeConfig(beam=beam, workers=2), BOS, EOS)
        assert as_lists(one) == as_lists(two)


def test_sampling_is_reproducible_with_a_seed_and_gives_n_samples():
    src = padded([[5, 6, 7], [9, 4]])
    config = DecodeConfig(sampling=True, n_best=3, seed=7, max_len_b=6)
    first, second = sample(MODEL, src, config, BOS, EOS), sample(MODEL, src, config, BOS, EOS)
    assert as_lists(first) == as_lists(second)
    assert [len(hyps) for hyps in first] == [3, 3]


def test_top_k_one_is_greedy():
    src = padded([[5, 6, 7], [9, 4], [10, 11, 12, 13]])
    config = DecodeConfig(sampling=True, top_k=1, seed=1, max_len_b=6)
    sampled = sample(MODEL, src, config, BOS, EOS)
    greedy = greedy_decode(MODEL, src, DecodeConfig(beam=1, max_len_b=6), BOS, EOS)
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
        config = DecodeConfig(sampling=True, n_best=40, seed=3, max_len_b=1, **options)
        firsts = {h.tokens[0] if h.tokens else EOS for h in sample(MODEL, src, config, BOS, EOS)[0]}
        assert firsts <= set(allowed)


def test_nucleus_keeps_the_smallest_set_reaching_p():
    logits = torch.tensor([[0.15, 0.5, 0.05, 0.3]]).log()
    kept = nucleus(logits, 0.7).isfinite()[0].tolist()
    assert kept == [False, True, False, True]
    assert nucleus(logits, 0.8).isfinite()[0].tolist() == [False, True, False, True]
    assert nucleus(logits, 0.81).isfinite()[0].tolist() == [True, True, False, True]


def test_long_input_raises_a_clear_error_or_is_split():
    model = tiny_model(max_len=12)
    src = padded([[5] * 20, [6, 7]])
    with pytest.raises(ValueError, match="long_input='split'"):
        decode(model, src, DecodeConfig(beam=2), BOS, EOS)
    result = decode(model, src, DecodeConfig(beam=2, long_input="split", max_len_b=3), BOS, EOS)
    assert len(result) == 2 and all(len(h) == 1 for h in result)
    short = decode(model, padded([[6, 7]]), DecodeConfig(beam=2, max_len_b=3), BOS, EOS)
    assert result[1][0].tokens == short[0][0].tokens

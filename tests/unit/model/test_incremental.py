"""Incremental decoding with the key/value cache equals re-running the whole decoder."""

import pytest
import torch

from fanyi.model.attention import KVCache
from tiny_model import tiny_model

TOL = 1e-5


@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("positional", ["sinusoidal", "learned"])
def test_step_by_step_logits_equal_full_decoder(norm, positional):
    model = tiny_model(0, tgt_vocab_size=30, norm=norm, positional=positional)
    src = torch.randint(1, 40, (3, 9))
    src[0, 4:] = 0  # sources of different lengths: 4, 9 and 6 tokens
    src[2, 6:] = 0
    tgt = torch.randint(1, 30, (3, 7))
    with torch.no_grad():
        full = model(src, tgt)  # b x t x V
        state = model.start_decoding(src)
        for t in range(tgt.size(1)):
            hidden, _ = model.decode_step(tgt[:, t : t + 1], state)
            step = model.generator(hidden)[:, 0]
            assert (step - full[:, t]).abs().max() < TOL, f"step {t}"


def test_multi_token_step_and_reordering():
    """Feeding a prefix in one call, and selecting rows of the state, keep the cache exact."""
    model = tiny_model(1, vocab=20)
    src = torch.randint(1, 20, (4, 5))
    src[1, 3:] = 0
    tgt = torch.randint(1, 20, (4, 6))
    with torch.no_grad():
        full = model(src, tgt)
        state = model.start_decoding(src)
        hidden, _ = model.decode_step(tgt[:, :4], state)  # a 4-token prefix at once
        assert (model.generator(hidden) - full[:, :4]).abs().max() < TOL
        order = torch.tensor([3, 1, 1])  # reorder, duplicate and drop rows, as beam search does
        state.select(order)
        hidden, _ = model.decode_step(tgt[order, 4:6], state)
        assert (model.generator(hidden) - full[order, 4:6]).abs().max() < TOL


def test_cross_attention_weights_from_steps_match_full_decode():
    model = tiny_model(2, vocab=20)
    src, tgt = torch.randint(1, 20, (2, 5)), torch.randint(1, 20, (2, 3))
    with torch.no_grad():
        memory = model.encode(src)
        _, full_weights = model.decode(tgt, memory, None, need_weights=True)
        state = model.start_decoding(src)
        _, step_weights = model.decode_step(tgt, state, need_weights=True)
    assert len(full_weights) == 2 and full_weights[0].shape == (2, 4, 3, 5)
    for a, b in zip(full_weights, step_weights, strict=True):
        assert (a - b).abs().max() < TOL


def test_decoding_past_the_cache_capacity_keeps_every_step_exact():
    """The self-attention cache starts with room for 16 positions and grows to twice what it holds (``KVCache._grow``,
    copying what it holds); 40 steps cross two growths, with rows reordered in between."""
    model = tiny_model(3, vocab=20, max_len=64)
    src, tgt = torch.randint(1, 20, (3, 6)), torch.randint(1, 20, (3, 40))
    order = torch.tensor([2, 0, 1])
    with torch.no_grad():
        state = model.start_decoding(src)
        capacities = []
        for t in range(tgt.size(1)):
            if t == 20:
                state.select(order)  # the grown cache survives reordering
                src, tgt = src[order], tgt[order]
            hidden, _ = model.decode_step(tgt[:, t : t + 1], state)
            capacities.append(state.self_attn[0].key.size(2))
            full = model(src, tgt[:, : t + 1])[:, t]
            assert (model.generator(hidden)[:, 0] - full).abs().max() < TOL, f"step {t}"
    assert sorted(set(capacities)) == [16, 34, 70]  # grown twice, each time to twice its length


def test_kv_cache_growth_copies_what_it_holds():
    cache = KVCache()
    keys = torch.randn(2, 3, 37, 4)
    for t in range(37):  # one step at a time: capacity 16 → 34 → 70
        all_keys, all_values = cache.append(keys[:, :, t : t + 1], -keys[:, :, t : t + 1])
    assert torch.equal(all_keys, keys) and torch.equal(all_values, -keys)
    assert cache.key.size(2) == 70


@pytest.mark.parametrize("n_tokens", [1, 2])
def test_beams_sharing_their_source_memory_equal_copies_of_it(n_tokens):
    """k beams per source attend to one copy of its memory (``start_decoding(src, beams=k)``):
    logits and cross-attention equal those of k copies of the source, through reordering
    within sources and dropping a finished source."""
    model = tiny_model(4, vocab=20)
    k, src = 3, torch.randint(1, 20, (3, 7))
    src[1, 4:] = 0
    copies = src.repeat_interleave(k, dim=0)
    tgt = torch.randint(1, 20, (3 * k, 3 * n_tokens))
    within = torch.tensor([2, 2, 0, 4, 3, 3, 8, 6, 7])  # beams move within their source
    dropped = torch.tensor([0, 1, 2, 6, 7, 8])  # source 1 finished
    with torch.no_grad():
        shared, copied = model.start_decoding(src, beams=k), model.start_decoding(copies)
        for step, index in enumerate([within, dropped, None]):
            tokens = tgt[:, step * n_tokens : (step + 1) * n_tokens]
            a, wa = model.decode_step(tokens, shared, need_weights=True)
            b, wb = model.decode_step(tokens, copied, need_weights=True)
            assert (a - b).abs().max() < TOL and (wa[-1] - wb[-1]).abs().max() < TOL
            if index is not None:
                for state in (shared, copied):
                    state.select(index)
                tgt = tgt[index]
    assert shared.cross_attn[0].key.size(0) == 2 and copied.cross_attn[0].key.size(0) == 6


def test_reordering_gathers_into_a_kept_spare_buffer():
    """``KVCache.select`` writes the rows it keeps into a second buffer and swaps the two: after
    the first reorder no step allocates, and the held positions are exactly the rows asked for."""
    cache, keys = KVCache(), torch.randn(4, 2, 5, 3)
    cache.append(keys, -keys)
    buffers = {cache.key.data_ptr()}
    expected = keys
    for index in ([3, 3, 0, 1], [1, 0, 2, 2], [0, 2]):
        cache.select(torch.tensor(index))
        expected = expected[index]
        buffers.add(cache.key.data_ptr())
        k, v = cache.view()
        assert torch.equal(k, expected) and torch.equal(v, -expected)
    assert len(buffers) == 2 and cache.key.size(2) == 16  # two buffers; capacity kept

"""Incremental decoding with the key/value cache equals re-running the whole decoder."""

import pytest
import torch

from fanyi.model import ModelConfig, build_model

TOL = 1e-5


@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("positional", ["sinusoidal", "learned"])
def test_step_by_step_logits_equal_full_decoder(norm, positional):
    torch.manual_seed(0)
    model = build_model(
        ModelConfig(
            src_vocab_size=40,
            tgt_vocab_size=30,
            d_model=32,
            d_ff=64,
            h=4,
            N_enc=2,
            N_dec=2,
            norm=norm,
            positional=positional,
        )
    ).eval()
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
    torch.manual_seed(1)
    model = build_model(
        ModelConfig(
            src_vocab_size=20, tgt_vocab_size=20, d_model=16, d_ff=32, h=2, N_enc=1, N_dec=2
        )
    ).eval()
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
    torch.manual_seed(2)
    model = build_model(
        ModelConfig(
            src_vocab_size=20, tgt_vocab_size=20, d_model=16, d_ff=32, h=2, N_enc=1, N_dec=2
        )
    ).eval()
    src, tgt = torch.randint(1, 20, (2, 5)), torch.randint(1, 20, (2, 3))
    with torch.no_grad():
        memory = model.encode(src)
        _, full_weights = model.decode(tgt, memory, None, need_weights=True)
        state = model.start_decoding(src)
        _, step_weights = model.decode_step(tgt, state, need_weights=True)
    assert len(full_weights) == 2 and full_weights[0].shape == (2, 2, 3, 5)
    for a, b in zip(full_weights, step_weights, strict=True):
        assert (a - b).abs().max() < TOL

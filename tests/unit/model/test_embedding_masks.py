"""Positional encoding against the formula of §3.5; mask properties for random lengths."""

import math

import torch
from hypothesis import given
from hypothesis import strategies as st

from fanyi.model import build_model, padding_mask, subsequent_mask, target_mask
from fanyi.model.embedding import Embeddings, sinusoid_table
from tiny_model import tiny_config


def test_sinusoid_table_equals_the_paper_formula():
    d_model, table = 16, sinusoid_table(50, 16)
    for pos in (0, 1, 7, 49):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            assert math.isclose(table[pos, 2 * i], math.sin(angle), abs_tol=1e-6)
            assert math.isclose(table[pos, 2 * i + 1], math.cos(angle), abs_tol=1e-6)


def test_embeddings_are_scaled_by_sqrt_d_model():
    emb = Embeddings(10, 64, pad_id=0)
    tokens = torch.tensor([[3, 4]])
    assert torch.allclose(emb(tokens), emb.lut.weight[tokens] * 8.0)


def test_input_embedding_is_token_plus_position():
    model = build_model(tiny_config(10, d_model=8, h=2, max_len=20)).eval()
    tokens = torch.tensor([[5, 6, 7]])
    expected = model.tgt_embed.embeddings(tokens) + sinusoid_table(20, 8)[2:5]
    assert torch.allclose(model.tgt_embed(tokens, start=2), expected)


@given(st.integers(1, 40))
def test_subsequent_mask_is_lower_triangular(size):
    mask = subsequent_mask(size)[0, 0]
    i, j = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    assert torch.equal(mask, j <= i)


@given(st.lists(st.integers(0, 12), min_size=1, max_size=6))
def test_padding_and_target_masks(lengths):
    width = max(lengths) + 1
    tokens = torch.zeros(len(lengths), width, dtype=torch.long)
    for row, n in enumerate(lengths):
        tokens[row, :n] = torch.arange(1, n + 1)
    pad = padding_mask(tokens, 0)
    assert pad.shape == (len(lengths), 1, 1, width)
    assert pad.sum(-1).flatten().tolist() == lengths
    tgt = target_mask(tokens, 0)
    for row, n in enumerate(lengths):
        for q in range(width):  # query q sees exactly the real keys at positions ≤ q
            assert tgt[row, 0, q].sum() == min(q + 1, n)


def test_the_source_mask_is_left_out_only_on_the_cpu_where_deciding_costs_no_wait():
    model = build_model(tiny_config())
    whole, padded = torch.tensor([[5, 6, 7]]), torch.tensor([[5, 6, 0]])
    assert model.source_mask(whole) is None
    assert model.source_mask(padded).tolist() == [[[[True, True, False]]]]
    # elsewhere the mask is kept without a look (a read of a meta tensor would raise)
    on_meta = model.source_mask(whole.to("meta"))
    assert on_meta is not None and on_meta.shape == (1, 1, 1, 3)

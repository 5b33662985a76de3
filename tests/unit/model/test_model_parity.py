"""fanyi's model against PyTorch's own modules, with fanyi's weights mapped across."""

import pytest
import torch
from torch import nn

from fanyi.model import ModelConfig, build_model, padding_mask, subsequent_mask
from fanyi.model.attention import MultiHeadAttention, scaled_dot_product_attention
from tiny_model import tiny_config

TOL = 1e-5


def config(norm: str) -> ModelConfig:
    return tiny_config(50, tgt_vocab_size=60, N_dec=3, norm=norm)


def copy_attention(ours: MultiHeadAttention, theirs: nn.MultiheadAttention) -> None:
    theirs.in_proj_weight.copy_(ours.in_proj.weight)
    theirs.in_proj_bias.copy_(ours.in_proj.bias)
    theirs.out_proj.weight.copy_(ours.out_proj.weight)
    theirs.out_proj.bias.copy_(ours.out_proj.bias)


def copy_norm(ours: nn.LayerNorm, theirs: nn.LayerNorm) -> None:
    theirs.weight.copy_(ours.weight)
    theirs.bias.copy_(ours.bias)


@torch.no_grad()
def reference_transformer(model) -> nn.Transformer:
    """A torch.nn.Transformer holding the same weights as fanyi's ``model``."""
    c = model.config
    ref = nn.Transformer(
        c.d_model,
        c.h,
        c.N_enc,
        c.N_dec,
        c.d_ff,
        dropout=0.0,
        batch_first=True,
        norm_first=c.norm == "pre",
    )
    for ours, theirs in zip(model.encoder.layers, ref.encoder.layers, strict=True):
        copy_attention(ours.self_attn, theirs.self_attn)
        theirs.linear1.load_state_dict(ours.feed_forward.w_1.state_dict())
        theirs.linear2.load_state_dict(ours.feed_forward.w_2.state_dict())
        copy_norm(ours.sublayers[0].norm, theirs.norm1)
        copy_norm(ours.sublayers[1].norm, theirs.norm2)
    for ours, theirs in zip(model.decoder.layers, ref.decoder.layers, strict=True):
        copy_attention(ours.self_attn, theirs.self_attn)
        copy_attention(ours.cross_attn, theirs.multihead_attn)
        theirs.linear1.load_state_dict(ours.feed_forward.w_1.state_dict())
        theirs.linear2.load_state_dict(ours.feed_forward.w_2.state_dict())
        for i, norm in enumerate((theirs.norm1, theirs.norm2, theirs.norm3)):
            copy_norm(ours.sublayers[i].norm, norm)
    if c.norm == "pre":  # the final LayerNorm of each stack
        copy_norm(model.encoder.norm, ref.encoder.norm)
        copy_norm(model.decoder.norm, ref.decoder.norm)
    else:  # the paper's post-norm stacks end with the last sub-layer's LayerNorm, nothing more
        ref.encoder.norm = None
        ref.decoder.norm = None
    return ref


def padded_batch(vocab: int, lengths: list[int], pad_id: int = 0) -> torch.Tensor:
    batch = torch.full((len(lengths), max(lengths)), pad_id)
    for i, n in enumerate(lengths):
        batch[i, :n] = torch.randint(1, vocab, (n,))
    return batch


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_transformer_matches_torch_nn_transformer(norm):
    torch.manual_seed(0)
    model = build_model(config(norm))
    ref = reference_transformer(model)
    model.train(), ref.train()  # dropout is 0; train mode keeps nn.Transformer off its fast path
    src = padded_batch(50, [7, 3, 5, 1])
    tgt = padded_batch(60, [6, 6, 2, 4])
    with torch.no_grad():
        src_mask = model.source_mask(src)
        memory = model.encode(src, src_mask)
        ours, _ = model.decode(tgt, memory, src_mask, tgt_mask=_target_mask(tgt))
        theirs = ref(
            model.src_embed(src),
            model.tgt_embed(tgt),
            tgt_mask=~subsequent_mask(tgt.size(1))[0, 0],
            src_key_padding_mask=src == 0,
            tgt_key_padding_mask=tgt == 0,
            memory_key_padding_mask=src == 0,
        )
    real = tgt != 0  # rows of padded target positions are irrelevant (and NaN-prone in torch)
    assert (ours[real] - theirs[real]).abs().max() < TOL
    ref_memory = ref.encoder(model.src_embed(src), src_key_padding_mask=src == 0)
    assert (memory[src != 0] - ref_memory[src != 0]).abs().max() < TOL


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_causal_path_equals_explicit_target_mask(norm):
    """Training uses the causal fast path without a target padding mask: same real positions."""
    torch.manual_seed(1)
    model = build_model(config(norm)).eval()
    src, tgt = padded_batch(50, [4, 6]), padded_batch(60, [5, 2])
    with torch.no_grad():
        src_mask = model.source_mask(src)
        memory = model.encode(src, src_mask)
        fast, _ = model.decode(tgt, memory, src_mask)
        explicit, _ = model.decode(tgt, memory, src_mask, tgt_mask=_target_mask(tgt))
    real = tgt != 0
    assert (fast[real] - explicit[real]).abs().max() < TOL


def _target_mask(tgt):
    return padding_mask(tgt, 0) & subsequent_mask(tgt.size(1))


@pytest.mark.parametrize("cross", [False, True])
def test_multi_head_attention_matches_torch(cross):
    torch.manual_seed(2)
    ours = MultiHeadAttention(d_model=48, h=6)
    theirs = nn.MultiheadAttention(48, 6, batch_first=True)
    with torch.no_grad():
        copy_attention(ours, theirs)
    x = torch.randn(3, 5, 48)
    memory = torch.randn(3, 9, 48) if cross else x
    keys = padded_batch(10, [9, 4, 6] if cross else [5, 2, 3])
    ours_out, ours_w = ours(
        x, memory if cross else None, mask=padding_mask(keys, 0), need_weights=True
    )
    theirs_out, theirs_w = theirs(
        x, memory, memory, key_padding_mask=keys == 0, average_attn_weights=False
    )
    assert (ours_out - theirs_out).abs().max() < TOL
    assert (ours_w - theirs_w).abs().max() < TOL
    with torch.no_grad():  # inference takes F.scaled_dot_product_attention
        fast_out, no_weights = ours(x, memory if cross else None, mask=padding_mask(keys, 0))
    assert no_weights is None and (fast_out - theirs_out).abs().max() < TOL


def test_reference_attention_matches_sdpa_and_rows_sum_to_one():
    torch.manual_seed(3)
    q, k, v = torch.randn(2, 3, 4, 8), torch.randn(2, 3, 6, 8), torch.randn(2, 3, 6, 8)
    mask = torch.rand(2, 1, 4, 6) > 0.3
    mask[..., 0] = True  # every query sees at least one key
    out, weights = scaled_dot_product_attention(q, k, v, mask)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v, mask)
    assert (out - expected).abs().max() < TOL
    assert torch.allclose(weights.sum(-1), torch.ones(2, 3, 4))
    assert (weights[~mask.expand_as(weights)] == 0).all()


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_explicit_training_path_equals_sdpa_inference_path(norm):
    """With autograd on a CPU, attention is computed by eq. 1 written out; without, by SDPA."""
    torch.manual_seed(4)
    model = build_model(config(norm)).eval()
    src, tgt = padded_batch(50, [5, 7, 2]), padded_batch(60, [4, 6, 6])
    explicit = model(src, tgt)
    with torch.no_grad():
        fused = model(src, tgt)
    real = tgt != 0
    assert explicit.requires_grad and (explicit[real] - fused[real]).abs().max() < TOL

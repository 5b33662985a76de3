"""The bf16 and int8 variants (``model/inference``) equal the plain model within their precision.

The rewrite both make, encoder-decoder attention with Wᵠ and Wᴷⱽ apart, decodes the very tokens
of the stacked one in fp32. bf16 (its linear maps packed where oneDNN can: AVX-512 and AMX hosts,
none on AVX2) equals the model cast to bf16 and fp32 to bf16's precision; int8 equals fp32 to
int8's. Tokens are compared exactly only in fp32: in bf16 and int8 the last bits depend on the
host's kernels, so there floats are compared within a tolerance and tokens by agreement.
"""

import copy

import pytest
import torch

from fanyi.decode import SearchOptions, decode
from fanyi.engines.dtype import prepare_model
from fanyi.model.inference import PackedLinear, quantize_int8, to_bfloat16
from fanyi.model.inference.split_attention import (
    CrossAttention,
    linear_from,
    split_cross_attention,
)
from fanyi.precision import packs_bf16
from tiny_model import peaked_model, tiny_model

BOS, EOS = 2, 3
CPU = torch.device("cpu")
# largest |logit error| / largest |logit| allowed: bf16 keeps 8 bits of mantissa (one step is
# 0.4%, a few layers add some), int8 7-8 bits per product (measured 1.0% and 2.7% on Zen 4)
TOLERANCE = {"bf16": 0.03, "int8": 0.1}


@pytest.fixture(scope="module")
def model():
    return peaked_model()


def sources(rows: int = 8) -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(1)
    src = torch.randint(4, 64, (rows, 12), generator=generator)
    src[0, 7:] = 0  # a padded source
    return src, torch.randint(4, 64, (rows, 10), generator=generator)


@torch.no_grad()
def teacher_forced_logits(model, src, tgt):
    state = model.start_decoding(src)
    hidden, _ = model.decode_step(tgt, state)
    return model.generator.logits(hidden).float()


def test_split_attention_decodes_exactly_as_the_stacked_one_in_fp32(model):
    split = copy.deepcopy(model)
    split_cross_attention(split)
    assert all(isinstance(layer.cross_attn, CrossAttention) for layer in split.decoder.layers)
    src, tgt = sources()
    torch.testing.assert_close(
        teacher_forced_logits(split, src, tgt), teacher_forced_logits(model, src, tgt)
    )
    for beam in (1, 3):
        config = SearchOptions(beam=beam, n_best=beam, max_len_a=0.0, max_len_b=12)
        expected, got = decode(model, src, config, BOS, EOS), decode(split, src, config, BOS, EOS)
        for want, have in zip(expected, got, strict=True):
            assert [h.tokens for h in have] == [h.tokens for h in want]
            assert [h.score for h in have] == pytest.approx([h.score for h in want], abs=1e-4)


def test_bf16_equals_the_model_cast_to_bf16(model):
    fast, plain = to_bfloat16(model), copy.deepcopy(model).to(torch.bfloat16).eval()
    packed = [m for m in fast.modules() if isinstance(m, PackedLinear)]
    assert bool(packed) == packs_bf16(CPU)  # every linear map, where oneDNN can pack them
    assert all(p.dtype == torch.bfloat16 for p in fast.parameters())
    src, tgt = sources()
    reference = teacher_forced_logits(plain, src, tgt)
    error = (teacher_forced_logits(fast, src, tgt) - reference).abs().max()
    assert error <= TOLERANCE["bf16"] * reference.abs().max()


@pytest.mark.parametrize(("dtype", "convert"), [("bf16", to_bfloat16), ("int8", quantize_int8)])
def test_a_variant_equals_fp32_within_its_precision(model, dtype, convert):
    src, tgt = sources()
    reference = teacher_forced_logits(model, src, tgt)
    approx = teacher_forced_logits(convert(model), src, tgt)
    assert (approx - reference).abs().max() <= TOLERANCE[dtype] * reference.abs().max()
    assert (approx.argmax(-1) == reference.argmax(-1)).float().mean() >= 0.9
    assert next(model.parameters()).dtype == torch.float32  # the original is untouched


@pytest.mark.parametrize("dtype", ["bf16", "int8"])
def test_a_prepared_model_decodes_like_fp32(model, dtype):
    src, _ = sources(6)
    config = SearchOptions(beam=3, max_len_a=0.0, max_len_b=8)
    fast = prepare_model(model, dtype)
    expected = decode(model, src, config, BOS, EOS)
    got = decode(fast, src, config, BOS, EOS)
    first_tokens = [(e[0].tokens[:3], g[0].tokens[:3]) for e, g in zip(expected, got, strict=True)]
    assert sum(e == g for e, g in first_tokens) >= len(first_tokens) // 2


@pytest.mark.parametrize("convert", [to_bfloat16, quantize_int8])
def test_a_variant_of_a_model_with_dropout_computes_the_same_every_time(convert):
    """Every module of a variant is in evaluation mode, the split encoder-decoder attention too:
    in training mode its attention dropout made each call translate differently."""
    model = tiny_model(0, vocab=64, d_model=64, d_ff=128, dropout=0.3, attention_dropout=0.3)
    fast = convert(model)
    assert not any(m.training for m in fast.modules())
    src, tgt = sources(4)
    first = teacher_forced_logits(fast, src, tgt)
    assert torch.equal(teacher_forced_logits(fast, src, tgt), first)  # same host, same kernels


def test_a_split_map_copies_its_weights_without_drawing_random_numbers():
    """``linear_from``: the weights and bias copied (not shared), the generator untouched."""
    weight, bias = torch.randn(6, 4), torch.randn(6)
    state = torch.get_rng_state()
    linear = linear_from(weight, bias)
    assert torch.equal(torch.get_rng_state(), state)
    assert torch.equal(linear.weight, weight) and torch.equal(linear.bias, bias)
    assert linear.weight.data_ptr() != weight.data_ptr()
    assert (linear.in_features, linear.out_features) == (4, 6)
    torch.testing.assert_close(linear(torch.ones(2, 4)), torch.ones(2, 4) @ weight.T + bias)
    assert linear_from(weight, None).bias is None

"""bf16 and int8 copies decode, and mostly agree with fp32 on a small random model."""

import pytest
import torch

from fanyi.decode import DecodeConfig, decode, prepare_model, quantize_int8, to_bfloat16
from fanyi.decode.quantize import PackedLinear
from tiny_model import peaked_model, tiny_model

BOS, EOS = 2, 3


@pytest.fixture(scope="module")
def model():
    return peaked_model()


def teacher_forced_logits(model, src, tgt):
    with torch.no_grad():
        state = model.start_decoding(src)
        hidden, _ = model.decode_step(tgt, state)
        return model.generator.logits(hidden).float()


@pytest.mark.parametrize("convert", [to_bfloat16, quantize_int8])
def test_converted_model_agrees_with_fp32(model, convert):
    torch.manual_seed(1)
    src, tgt = torch.randint(4, 64, (8, 12)), torch.randint(4, 64, (8, 10))
    fast = convert(model)
    reference, approx = (
        teacher_forced_logits(model, src, tgt),
        teacher_forced_logits(fast, src, tgt),
    )
    agreement = (reference.argmax(-1) == approx.argmax(-1)).float().mean()
    assert agreement >= 0.9
    assert (reference - approx).abs().max() < 0.1 * reference.abs().max()


@pytest.mark.parametrize("dtype", ["bf16", "int8"])
def test_prepared_model_decodes_like_fp32(model, dtype):
    torch.manual_seed(2)
    src = torch.randint(4, 64, (6, 10))
    config = DecodeConfig(beam=3, max_len_a=0.0, max_len_b=8, dtype=dtype)
    fast = prepare_model(model, config)
    assert next(model.parameters()).dtype == torch.float32  # the original is untouched
    expected = decode(model, src, DecodeConfig(beam=3, max_len_a=0.0, max_len_b=8), BOS, EOS)
    got = decode(fast, src, config, BOS, EOS)
    first_tokens = [(e[0].tokens[:3], g[0].tokens[:3]) for e, g in zip(expected, got, strict=True)]
    assert sum(e == g for e, g in first_tokens) >= len(first_tokens) // 2


@pytest.mark.parametrize("dtype", ["bf16", "int8"])
def test_a_converted_model_with_dropout_decodes_the_same_every_time(dtype):
    """Every module of a bf16 / int8 copy is in evaluation mode, the split encoder-decoder
    attention too: in training mode its attention dropout made each call translate differently."""
    model = tiny_model(0, vocab=64, d_model=64, d_ff=128, dropout=0.3, attention_dropout=0.3)
    fast = prepare_model(model, DecodeConfig(dtype=dtype))
    assert not any(m.training for m in fast.modules())
    torch.manual_seed(3)
    src = torch.randint(4, 64, (4, 9))
    config = DecodeConfig(beam=3, max_len_a=0.0, max_len_b=8, dtype=dtype)
    runs = [[h[0].tokens for h in decode(fast, src, config, BOS, EOS)] for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]


def test_packed_bf16_linear_maps_equal_plain_ones():
    """``PackedLinear`` (oneDNN's pre-arranged weight) computes what ``F.linear`` does in bf16,
    for any number of rows and for 3-d inputs."""
    linear = torch.nn.Linear(64, 96).to(torch.bfloat16)
    if not PackedLinear.available(linear):
        pytest.skip("this torch build has no oneDNN")
    packed = PackedLinear(linear)
    torch.manual_seed(4)
    for shape in [(1, 64), (5, 64), (33, 64), (7, 3, 64)]:
        x = torch.randn(shape).to(torch.bfloat16)
        expected = torch.nn.functional.linear(x.float(), linear.weight.float(), linear.bias.float())
        assert packed(x).shape == expected.shape
        torch.testing.assert_close(packed(x).float(), expected, atol=0.05, rtol=0.02)

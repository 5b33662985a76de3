"""bf16 and int8 copies decode, and mostly agree with fp32 on a small random model."""

import pytest
import torch

from fanyi.decode import DecodeConfig, decode, prepare_model, quantize_int8, to_bfloat16
from tiny_model import tiny_model

BOS, EOS = 2, 3


@pytest.fixture(scope="module")
def model():
    model = tiny_model(0, vocab=64, d_model=64, d_ff=128)
    with torch.no_grad():
        model.generator.proj.weight.mul_(3.0)  # a peaked distribution, like a trained model's
    return model


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

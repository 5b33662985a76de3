"""CPU speed options: a bf16 copy of the model, or int8 dynamic quantisation of its linear maps.

bf16 converts the weights (``.to(torch.bfloat16)``); ``torch.autocast`` was measured 3-4x
*slower* for step-wise decoding, because it re-casts every weight at every step. int8 uses
``torch.ao.quantization.quantize_dynamic``: weights stored as int8, activations quantised on
the fly per call.
"""

from __future__ import annotations

import copy
import warnings
from typing import cast

import torch
from torch import Tensor, nn

from ..model import MultiHeadAttention, Transformer
from ..model.layers import DecoderLayer


def to_bfloat16(model: Transformer) -> Transformer:
    """A copy of ``model`` with every weight and buffer in bfloat16, ready for decoding."""
    return copy.deepcopy(model).to(torch.bfloat16).eval()


class CrossAttention(MultiHeadAttention):
    """Encoder-decoder attention with Wᵠ and Wᴷⱽ as two separate linear maps.

    ``MultiHeadAttention`` slices its stacked ``in_proj`` weight for cross-attention, which a
    quantised linear map (whose weight is packed) cannot do; two modules can each be quantised.
    """

    def __init__(self, attention: MultiHeadAttention) -> None:
        super().__init__(attention.d_model, attention.h, attention.dropout)
        d = self.d_model
        self.out_proj = attention.out_proj
        self.q_proj = _linear(attention.in_proj.weight[:d], attention.in_proj.bias[:d])
        self.kv_proj = _linear(attention.in_proj.weight[d:], attention.in_proj.bias[d:])
        del self.in_proj

    def project_query(self, x: Tensor) -> Tensor:
        return self.split_heads(self.q_proj(x))

    def project_key_value(self, x: Tensor) -> tuple[Tensor, Tensor]:
        key, value = self.kv_proj(x).chunk(2, dim=-1)
        return self.split_heads(key), self.split_heads(value)


def _linear(weight: Tensor, bias: Tensor) -> nn.Linear:
    linear = nn.Linear(weight.size(1), weight.size(0))
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    return linear


def quantize_int8(model: Transformer) -> Transformer:
    """A copy of ``model`` whose linear maps (attention, feed-forward, generator) are int8."""
    model = copy.deepcopy(model).float().eval()
    for layer in cast(list[DecoderLayer], model.decoder.layers):
        layer.cross_attn = CrossAttention(layer.cross_attn)
    with warnings.catch_warnings():  # torch 2.9+ deprecates torch.ao in favour of torchao
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", message=".*quantize_per_tensor.*")
        return torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)

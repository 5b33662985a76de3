"""Encoder-decoder attention with its query and key/value maps apart, for the transforms that
replace every linear map by another (int8, packed bf16).

``MultiHeadAttention`` stacks Wᵠ, Wᴷ and Wⱽ (§3.2.2) in one ``in_proj`` and slices it for
encoder-decoder attention, whose queries come from the decoder and keys and values from the
encoder's memory; a quantised or packed linear map cannot be sliced, two can each be replaced.
The computation is the same: ``CrossAttention`` equals the attention it splits.
"""

from __future__ import annotations

from typing import cast

from torch import Tensor, nn

from ..attention import MultiHeadAttention
from ..layers import DecoderLayer
from ..transformer import Transformer


class CrossAttention(MultiHeadAttention):
    """Encoder-decoder attention with Wᵠ and Wᴷⱽ as two separate linear maps."""

    def __init__(self, attention: MultiHeadAttention) -> None:
        super().__init__(attention.d_model, attention.h, attention.dropout)
        d = self.d_model
        self.out_proj = attention.out_proj
        self.q_proj = linear_from(attention.in_proj.weight[:d], attention.in_proj.bias[:d])
        self.kv_proj = linear_from(attention.in_proj.weight[d:], attention.in_proj.bias[d:])
        del self.in_proj

    def project_query(self, x: Tensor) -> Tensor:
        return self.split_heads(self.q_proj(x))

    def project_key_value(self, x: Tensor) -> tuple[Tensor, Tensor]:
        key, value = self.kv_proj(x).chunk(2, dim=-1)
        return self.split_heads(key), self.split_heads(value)


def linear_from(weight: Tensor, bias: Tensor | None) -> nn.Linear:
    """An ``nn.Linear`` holding copies of ``weight`` (out x in) and ``bias``, in their dtype and
    on their device. It is made without ``nn.Linear.__init__``'s random initialisation, and not
    on the meta device either, whose first use imports torch's reference kernels (0.5 s)."""
    linear = nn.Linear.__new__(nn.Linear)
    nn.Module.__init__(linear)
    linear.in_features, linear.out_features = weight.size(1), weight.size(0)
    linear.weight = nn.Parameter(weight.detach().clone())
    copied = None if bias is None else nn.Parameter(bias.detach().clone())
    linear.register_parameter("bias", copied)
    return linear


def split_cross_attention(model: Transformer) -> None:
    """Give every encoder-decoder attention separate Wᵠ and Wᴷⱽ maps (``CrossAttention``), in
    evaluation mode like the rest: a new module starts in training mode, with dropout. One
    split already is left as it is."""
    for layer in cast(list[DecoderLayer], model.decoder.layers):
        if not isinstance(layer.cross_attn, CrossAttention):
            layer.cross_attn = CrossAttention(layer.cross_attn).eval()

"""CPU speed options: a bf16 copy of the model, or int8 dynamic quantisation of its linear maps.

bf16 converts the weights (``.to(torch.bfloat16)``); ``torch.autocast`` was measured 3-4x
*slower* for step-wise decoding, because it re-casts every weight at every step. On a CPU each
bf16 linear map then keeps its weight in oneDNN's blocked layout (``PackedLinear``). int8 uses
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


def to_bfloat16(model: Transformer, pack: bool = True) -> Transformer:
    """A copy of ``model`` with every weight and buffer in bfloat16, ready for decoding; on a
    CPU with oneDNN its linear maps are ``PackedLinear`` (unless ``pack`` is False: a model
    whose decoder is to be compiled, ``decode/compiled.py``)."""
    model = copy.deepcopy(model).to(torch.bfloat16).eval()
    if not pack or not PackedLinear.available(model):
        return model
    _split_cross_attention(model)
    pack_linear_maps(model)
    return model.eval()


def pack_linear_maps(module: nn.Module) -> None:
    """Replace every bf16 ``nn.Linear`` inside ``module`` by its ``PackedLinear``."""
    for parent in list(module.modules()):
        for name, child in parent.named_children():
            if isinstance(child, nn.Linear):
                setattr(parent, name, PackedLinear(child))


class PackedLinear(nn.Module):
    """A bf16 linear map y = x Wᵀ + b whose W oneDNN lays out once in the blocks its matrix
    kernels read (AMX tiles, AVX-512 BF16 dot products). ``F.linear`` re-lays W out at every
    call, which for a decoding step's few rows costs as much as the product: packed, the maps
    of the tiny model ran 1.3-1.9x faster at 16-32 rows on an AMX Xeon
    (``python benchmarks/packed_linear.py``)."""

    ROWS = 32  # the rows oneDNN is told to expect; any number works

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.packed = torch.ops.mkldnn._reorder_linear_weight(linear.weight.detach(), self.ROWS)
        self.bias = None if linear.bias is None else linear.bias.detach()

    @staticmethod
    def available(model: nn.Module) -> bool:
        """Whether this build can pack ``model``'s weights: oneDNN with bf16 kernels for this
        CPU, and the model on the CPU."""
        device = next(model.parameters()).device
        if device.type != "cpu" or not torch.backends.mkldnn.is_available():
            return False
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())

    def forward(self, x: Tensor) -> Tensor:
        return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")


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
    linear = nn.Linear(weight.size(1), weight.size(0), dtype=weight.dtype, device=weight.device)
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    return linear


def _split_cross_attention(model: Transformer) -> None:
    """Give every encoder-decoder attention separate Wᵠ and Wᴷⱽ maps (``CrossAttention``), in
    evaluation mode like the rest: a new module starts in training mode, with dropout."""
    for layer in cast(list[DecoderLayer], model.decoder.layers):
        layer.cross_attn = CrossAttention(layer.cross_attn).eval()


def quantize_int8(model: Transformer) -> Transformer:
    """A copy of ``model`` whose linear maps (attention, feed-forward, generator) are int8."""
    model = copy.deepcopy(model).float().eval()
    _split_cross_attention(model)
    with warnings.catch_warnings():  # torch 2.9+ deprecates torch.ao in favour of torchao
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", message=".*quantize_per_tensor.*")
        return torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8).eval()

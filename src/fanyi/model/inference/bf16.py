"""A bf16 copy of a model for decoding, its linear maps in oneDNN's packed layout on a CPU.

The weights are converted (``.to(torch.bfloat16)``); ``torch.autocast`` was measured 3-4x
*slower* for step-wise decoding, because it re-casts every weight at every step. On a CPU whose
oneDNN has bf16 kernels (``precision.packs_bf16``) each linear map then keeps its weight in
oneDNN's blocked layout (``PackedLinear``). Equal to the plain model cast to bf16 within bf16's
precision (tests/unit/model/test_quantize.py).
"""

from __future__ import annotations

import copy

import torch
from torch import Tensor, nn

from ...precision import packs_bf16
from ..transformer import Transformer
from .split_attention import split_cross_attention


def to_bfloat16(model: Transformer, pack: bool = True) -> Transformer:
    """A copy of ``model`` with every weight and buffer in bfloat16, ready for decoding; on a
    CPU with oneDNN its linear maps are ``PackedLinear`` (unless ``pack`` is False: a model
    whose decoder is to be compiled, ``compiled.py``)."""
    model = copy.deepcopy(model).to(torch.bfloat16).eval()
    if not pack or not packs_bf16(next(model.parameters()).device):
        return model
    split_cross_attention(model)
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
    (``python benchmarks/packed_linear.py``). Build one only where ``precision.packs_bf16``."""

    ROWS = 32  # the rows oneDNN is told to expect; any number works

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.packed = torch.ops.mkldnn._reorder_linear_weight(linear.weight.detach(), self.ROWS)
        self.bias = None if linear.bias is None else linear.bias.detach()

    def forward(self, x: Tensor) -> Tensor:
        return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")

"""Linear maps whose weights oneDNN lays out once, in the blocks its matrix kernels read.

``F.linear`` hands the weight to the matrix library as it is stored, and for a decoding step's
few rows (16-32 sources or beams) arranging it costs as much as the product. ``PackedLinear``
arranges it once, when a model is prepared for decoding: in bf16 where oneDNN has bf16 kernels
(AVX-512 BF16, AMX; ``bf16.py``) and in float32 on every CPU (``packed_float32``). Equal to the
plain maps within their precision (tests/unit/model/test_quantize.py).
"""

from __future__ import annotations

import copy

import torch
from torch import Tensor, nn

from ...precision import packs_bf16
from ..transformer import Transformer
from .split_attention import split_cross_attention


class PackedLinear(nn.Module):
    """y = x Wᵀ + b with W (float32 or bf16) in oneDNN's packed layout. Measured on the tiny
    model, one thread (``python benchmarks/fast_paths.py packed-linear``): bf16 maps 1.3-1.9x faster than
    ``F.linear`` at 16-32 rows on an AMX Xeon; float32 whole searches 1.14-1.19x on an
    AVX2-only EPYC (1.00-1.05x on an AMX Xeon, ``benchmarks/decode.py``, docs/decoding.md).
    Build one only where ``packs(device, dtype)``."""

    ROWS = 32  # the rows oneDNN is told to expect; any number works

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        self.packed = torch.ops.mkldnn._reorder_linear_weight(linear.weight.detach(), self.ROWS)
        self.bias = None if linear.bias is None else linear.bias.detach()

    def forward(self, x: Tensor) -> Tensor:
        return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")

    def unpacked(self) -> nn.Linear:
        """The plain linear map, its weight laid out densely again (exactly, in its dtype)."""
        weight = self.packed.to_dense()
        linear = nn.Linear(weight.size(1), weight.size(0), self.bias is not None)
        linear.weight = nn.Parameter(weight, requires_grad=False)
        if self.bias is not None:
            linear.bias = nn.Parameter(self.bias.clone(), requires_grad=False)
        return linear

    def __deepcopy__(self, memo: dict) -> PackedLinear:
        """A packed copy (oneDNN's opaque tensors have no storage for ``copy`` to copy)."""
        return PackedLinear(self.unpacked())


def packs(device: torch.device, dtype: torch.dtype) -> bool:
    """Whether linear maps in ``dtype`` on ``device`` can be packed: float32 on a CPU with
    oneDNN, bf16 where ``precision.packs_bf16``."""
    if dtype == torch.bfloat16:
        return packs_bf16(device)
    return dtype == torch.float32 and device.type == "cpu" and torch.backends.mkldnn.is_available()


def pack_linear_maps(module: nn.Module) -> None:
    """Replace every ``nn.Linear`` inside ``module`` by its ``PackedLinear``."""
    for parent in list(module.modules()):
        for name, child in parent.named_children():
            if isinstance(child, nn.Linear):
                setattr(parent, name, PackedLinear(child))


def plain_copy(model: Transformer) -> Transformer:
    """A copy of ``model`` in evaluation mode whose linear maps are all ``nn.Linear``: what a
    conversion starts from, so that a model already prepared in fp32 can be prepared again
    (in another dtype, or as an ensemble member). Each packed map is unpacked once, in place
    of its copy (``copy.deepcopy`` takes what its memo already holds)."""
    memo: dict[int, object] = {
        id(m): m.unpacked() for m in model.modules() if isinstance(m, PackedLinear)
    }
    return copy.deepcopy(model, memo).eval()


def pack_model(model: Transformer) -> Transformer:
    """``model`` (a copy being prepared) with encoder-decoder attention split into two maps,
    which can then be packed, and every linear map packed; in evaluation mode."""
    split_cross_attention(model)
    pack_linear_maps(model)
    return model.eval()


def packed_float32(model: Transformer) -> Transformer:
    """An fp32 model to decode with: a packed copy on a CPU with oneDNN, else ``model`` itself."""
    if not packs(next(model.parameters()).device, torch.float32):
        return model.eval()
    return pack_model(plain_copy(model))

"""An int8 copy of a model for decoding on a CPU: its linear maps in 8-bit integers.

Each weight is stored as int8 rows, one scale per output channel; each input row is quantised
on the fly with a scale of its own, the product taken in int32 (``torch._int_mm``: VNNI or AMX
where the CPU has them) and scaled back to float32. A row's scale is its own, so a sentence's
translation never depends on the other sentences of its batch (PyTorch's dynamic quantisation
scales a whole batch by one number). Equal to the fp32 model within int8's precision
(tests/unit/model/test_quantize.py).

A model stored as int8 rows (``fanyi.int8_storage``) is made from its rows as stored
(``int8_from_rows``), bit for bit the model ``quantize_int8`` makes of the weights they stand
for, without computing those weights (tests/unit/model/test_int8_rows.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import torch
from torch import Tensor, nn

from ..transformer import Transformer
from .packed import plain_copy
from .split_attention import CrossAttention, split_cross_attention

LEVELS = 127.0  # symmetric int8: -127..127
TINY = 1e-12  # the scale of an all-zero row or channel
LARGE = 1e30  # a stored scale above it, or below TINY, is quantised again from its weights
Rows = Mapping[str, tuple[Tensor, Tensor]]  # a weight's name → int8 rows [out, in], scales [out]


class Int8Linear(nn.Module):
    """y = x Wᵀ + b, W as int8 rows with a scale per output channel, x quantised per row."""

    weight_t: Tensor  # in x out, int8
    scale: Tensor  # per output channel
    bias: Tensor | None

    def __init__(self, weight: Tensor, bias: Tensor | None) -> None:
        super().__init__()
        weight = weight.detach().float()
        scale = weight.abs().amax(dim=1).clamp_min(TINY) / LEVELS
        quantized = torch.round(weight / scale[:, None]).to(torch.int8)
        self.register_buffer("weight_t", quantized.t().contiguous())  # in x out, for _int_mm
        self.register_buffer("scale", scale)
        self.register_buffer("bias", None if bias is None else bias.detach().float().clone())

    @classmethod
    def of(cls, linear: nn.Linear) -> Int8Linear:
        return cls(linear.weight, linear.bias)

    @classmethod
    def from_rows(cls, rows: Tensor, row_scale: Tensor, bias: Tensor | None) -> Int8Linear:
        """``Int8Linear(rows * row_scale[:, None], bias)`` bit for bit, from the int8 ``rows``
        themselves. A row whose largest ``|q|`` is 127 quantises back to itself: its scale
        is ``fl(fl(127 s) / 127)``, within two roundings of ``s``, so each ``q s / scale`` is
        within ``127 · 3 · 2⁻²⁴`` of ``q``; only the other rows are quantised again."""
        stored = row_scale.float()
        largest = torch.maximum(rows.amax(dim=1).short(), rows.amin(dim=1).short().neg())
        scale = (largest.float() * stored).clamp_min(TINY) / LEVELS  # as __init__ computes it
        kept = (largest == LEVELS) & (stored >= TINY) & (stored <= LARGE)
        quantized, again = rows, (~kept).nonzero()[:, 0]
        if again.numel():
            quantized = rows.clone()
            weight = rows[again].float() * stored[again, None]
            quantized[again] = torch.round(weight / scale[again, None]).to(torch.int8)
        module = cls.__new__(cls)
        nn.Module.__init__(module)
        module.register_buffer("weight_t", quantized.t().contiguous())
        module.register_buffer("scale", scale)
        module.register_buffer("bias", None if bias is None else bias.detach().float().clone())
        return module

    def forward(self, x: Tensor) -> Tensor:
        rows = x.reshape(-1, x.size(-1)).float()
        row_scale = rows.abs().amax(dim=1, keepdim=True).clamp_min(TINY) / LEVELS
        quantized = torch.round(rows / row_scale).to(torch.int8)
        y = _int_mm(quantized, self.weight_t).float().mul_(row_scale).mul_(self.scale)
        if self.bias is not None:
            y = y.add_(self.bias)
        return y.reshape(*x.shape[:-1], y.size(-1))

    def rows(self, ids: Tensor) -> Int8Linear:
        """The output channels ``ids`` as a map of their own (their int8 weights as they are)."""
        subset = Int8Linear.__new__(Int8Linear)
        nn.Module.__init__(subset)
        subset.register_buffer("weight_t", self.weight_t[:, ids].contiguous())
        subset.register_buffer("scale", self.scale[ids])
        subset.register_buffer("bias", None if self.bias is None else self.bias[ids])
        return subset


def _int_mm(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b`` of int8 matrices in int32, exact (no product of int8 rows overflows int32)."""
    if hasattr(torch, "_int_mm") and a.device.type == "cpu":
        return torch._int_mm(a, b)
    return a.int() @ b.int()


def quantize_int8(model: Transformer) -> Transformer:
    """A copy of ``model`` whose linear maps (attention, feed-forward, generator) are int8."""
    model = plain_copy(model).float().eval()
    split_cross_attention(model)
    for parent in list(model.modules()):
        for name, child in parent.named_children():
            if isinstance(child, nn.Linear):
                setattr(parent, name, Int8Linear.of(child))
    return model.eval()


def int8_from_rows(model: Transformer, rows: Rows) -> Transformer:
    """``model`` (every weight but its linear maps' loaded) decoding in int8, each linear map
    made from ``rows[its weight's name]`` as stored: bit for bit ``quantize_int8`` of the model
    holding the weights the rows stand for. Converted in place: nothing is copied."""
    model = model.float().eval()
    split_cross_attention(model)  # copies weights the maps made next do not read
    for prefix, parent in list(model.named_modules()):
        for name, child in parent.named_children():
            if isinstance(child, nn.Linear):
                q, scale = _rows_of(rows, f"{prefix}.{name}".lstrip("."), parent)
                setattr(parent, name, Int8Linear.from_rows(q, scale, child.bias))
    return model.eval()


def _rows_of(rows: Rows, name: str, parent: nn.Module) -> tuple[Tensor, Tensor]:
    """The stored rows of linear map ``name``: an encoder-decoder attention's Wᵠ and Wᴷⱽ are
    rows of its stacked ``in_proj`` (``split_attention.py``)."""
    if isinstance(parent, CrossAttention) and name.endswith(("q_proj", "kv_proj")):
        q, scale = rows[f"{name.rpartition('.')[0]}.in_proj.weight"]
        part = (
            slice(None, parent.d_model) if name.endswith("q_proj") else slice(parent.d_model, None)
        )
        return q[part], scale[part]
    return rows[f"{name}.weight"]

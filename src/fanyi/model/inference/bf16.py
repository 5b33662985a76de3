"""A bf16 copy of a model for decoding, its linear maps in oneDNN's packed layout on a CPU.

The weights are converted (``.to(torch.bfloat16)``); ``torch.autocast`` was measured 3-4x
*slower* for step-wise decoding, because it re-casts every weight at every step. On a CPU whose
oneDNN has bf16 kernels (``precision.packs_bf16``) each linear map then keeps its weight in
oneDNN's blocked layout (``packed.PackedLinear``). Equal to the plain model cast to bf16 within
bf16's precision (tests/unit/model/test_quantize.py).
"""

from __future__ import annotations

import torch

from ..transformer import Transformer
from .packed import pack_model, packs, plain_copy


def to_bfloat16(model: Transformer, pack: bool = True) -> Transformer:
    """A copy of ``model`` with every weight and buffer in bfloat16, ready for decoding; on a
    CPU with oneDNN its linear maps are ``PackedLinear`` (unless ``pack`` is False: a model
    whose decoder is to be compiled, ``compiled.py``)."""
    model = plain_copy(model).to(torch.bfloat16).eval()
    if not pack or not packs(next(model.parameters()).device, torch.bfloat16):
        return model
    return pack_model(model)

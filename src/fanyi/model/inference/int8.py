"""An int8 copy of a model for decoding on a CPU: dynamic quantisation of its linear maps.

``torch.ao.quantization.quantize_dynamic`` stores each weight as int8 and quantises the
activations on the fly per call (VNNI where the CPU has it, AVX2 elsewhere). Equal to the
fp32 model within int8's precision (tests/unit/model/test_quantize.py).
"""

from __future__ import annotations

import warnings

import torch
from torch import nn

from ..transformer import Transformer
from .packed import plain_copy
from .split_attention import split_cross_attention


def quantize_int8(model: Transformer) -> Transformer:
    """A copy of ``model`` whose linear maps (attention, feed-forward, generator) are int8."""
    model = plain_copy(model).float().eval()
    split_cross_attention(model)
    with warnings.catch_warnings():  # torch 2.9+ deprecates torch.ao in favour of torchao
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", message=".*quantize_per_tensor.*")
        return torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8).eval()

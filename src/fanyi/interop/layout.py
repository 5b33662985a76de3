"""The same model with its sinusoids laid out the other way: a permutation of d_model features.

§3.5 interleaves the positional encoding (sin at even features, cos at odd ones); Marian and
tensor2tensor put all sines first, then all cosines. The two layouts give the same model once
every weight that reads or writes the d_model features is permuted alike, LayerNorms included
(a permutation commutes with normalisation), so fanyi exports an interleaved model to MarianMT
exactly.
"""

from __future__ import annotations

import torch
from torch import Tensor

# Weights reading d_model features (their columns) and writing them (their rows / entries).
_READS = ("lut.weight", "generator.proj.weight", "in_proj.weight", "w_1.weight", "table.weight")
_WRITES = ("out_proj.weight", "out_proj.bias", "w_2.weight", "w_2.bias", "norm.weight", "norm.bias")


def concat_order(d_model: int) -> Tensor:
    """Feature m of the concat layout is feature ``order[m]`` of the interleaved one."""
    return torch.cat([torch.arange(0, d_model, 2), torch.arange(1, d_model, 2)])


def to_concat_layout(state: dict[str, Tensor], d_model: int) -> dict[str, Tensor]:
    """A fanyi state dict of an interleaved model as the equivalent concat-layout model's."""
    order = concat_order(d_model)
    out = {}
    for name, tensor in state.items():
        if name.endswith(_READS):
            tensor = tensor[:, order]
        elif name.endswith(_WRITES):
            tensor = tensor[order]
        out[name] = tensor
    return out

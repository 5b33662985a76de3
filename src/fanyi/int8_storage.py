"""Weight-only int8 storage: a model directory's matrices as int8 rows, one scale per row.

A 2-D weight ``W`` (an ``nn.Linear``'s ``[out, in]``, the embedding table ``[vocab, d_model]``)
is stored as ``Q = round(W / s)`` in int8 with ``s = max|W[i]| / 127`` per output row: Jacob et
al. 2018's ``r = S(q - Z)`` (§2.1) with ``Z = 0`` and one ``S`` per output channel (Krishnamoorthi
2018, "per-channel"; the "vector-wise" absmax of LLM.int8(), Dettmers et al. 2022), so
``|W - Q·s| ≤ s/2 = max|W[i]| / 254`` in each row. ``s`` is float32, stored as ``NAME_scale``
beside int8 ``NAME`` (the naming of compressed-tensors and vLLM); every other tensor (biases,
LayerNorm) is float16; tied matrices are stored once, as before. The safetensors metadata says so
(``quantized: int8-rows``); a reader refuses any other tag. This is storage only: reading
dequantizes to float32, and the model then computes in the dtype it is loaded in, except that a
model decoding in int8 takes its rows as stored (``model_dir.load_int8_model``).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import torch
from torch import Tensor

QUANTIZED = "quantized"  # the safetensors metadata key naming the storage format
INT8_ROWS = "int8-rows"
SCALE_SUFFIX = "_scale"
LAYOUT = (
    f"int8 NAME, float32 NAME{SCALE_SUFFIX} per row: weight = NAME * NAME{SCALE_SUFFIX}[:, None]"
)


def quantize_rows(weight: Tensor) -> tuple[Tensor, Tensor]:
    """``weight`` [rows, cols] as int8 [rows, cols] and its float32 scales [rows]."""
    w = weight.float()
    scale = w.abs().amax(dim=1) / 127
    divisor = torch.where(scale > 0, scale, torch.ones_like(scale))  # an all-zero row stays 0
    return torch.round(w / divisor[:, None]).clamp(-127, 127).to(torch.int8), scale


def dequantize_rows(q: Tensor, scale: Tensor) -> Tensor:
    """The float32 matrix that int8 ``q`` with per-row ``scale`` stands for."""
    return q.float() * scale[:, None]


def dequantized(rows: dict[str, tuple[Tensor, Tensor]], names: Collection[str]) -> dict:
    """The matrices ``names`` of ``rows`` as float32, each stored matrix computed once (a tied
    one has several names)."""
    done: dict[int, Tensor] = {}
    for name in names:
        q, scale = rows[name]
        if id(q) not in done:
            done[id(q)] = dequantize_rows(q, scale)
    return {name: done[id(rows[name][0])] for name in names}


def to_int8_rows(tensors: dict[str, Tensor]) -> tuple[dict[str, Tensor], dict[str, str]]:
    """``tensors`` as stored: 2-D ones quantized, the others float16; and the metadata to add."""
    stored: dict[str, Tensor] = {}
    for name, tensor in tensors.items():
        if tensor.dim() == 2 and tensor.is_floating_point():
            stored[name], stored[name + SCALE_SUFFIX] = quantize_rows(tensor)
        else:
            stored[name] = tensor.half() if tensor.is_floating_point() else tensor
    return stored, {QUANTIZED: INT8_ROWS, "int8_rows": LAYOUT}


def from_stored(tensors: dict[str, Tensor], metadata: dict[str, str], source: Path) -> dict:
    """The tensors of a ``model.safetensors`` with its metadata, every quantized one float32
    again (those of an unquantized file unchanged); a clear error for an unknown format."""
    plain, rows = stored_rows(tensors, metadata, source)
    return plain | {name: dequantize_rows(q, scale) for name, (q, scale) in rows.items()}


def stored_rows(
    tensors: dict[str, Tensor], metadata: dict[str, str], source: Path
) -> tuple[dict[str, Tensor], dict[str, tuple[Tensor, Tensor]]]:
    """The tensors of a ``model.safetensors`` with its metadata apart: those stored as they are,
    and each int8 matrix with its per-row scales as stored (none in an unquantized file); a
    clear error for an unknown format."""
    if not is_int8_rows(metadata, source):
        return tensors, {}
    scales = {name + SCALE_SUFFIX for name, t in tensors.items() if t.dtype == torch.int8}
    plain, rows = {}, {}
    for name, tensor in tensors.items():
        if tensor.dtype != torch.int8:
            if name not in scales:
                plain[name] = tensor
            continue
        scale = tensors.get(name + SCALE_SUFFIX)
        if tensor.dim() != 2 or scale is None or tuple(scale.shape) != (tensor.shape[0],):
            raise ValueError(f"{source}: int8 {name} lacks {name}{SCALE_SUFFIX}, one per row")
        rows[name] = tensor, scale
    return plain, rows


def is_int8_rows(metadata: dict[str, str], source: Path) -> bool:
    """Whether a ``model.safetensors`` with ``metadata`` stores its matrices as int8 rows (False:
    unquantized); a clear error for an unknown format."""
    tag = metadata.get(QUANTIZED)
    if tag is None:
        return False
    if tag != INT8_ROWS:
        raise ValueError(
            f"{source}: unknown weight quantization {tag!r} in its metadata; this fanyi reads "
            f"{INT8_ROWS!r} only (written by a newer fanyi?)"
        )
    return True

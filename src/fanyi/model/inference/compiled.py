"""The decoder's one-token step compiled into C++ by ``torch.compile`` (``DecodeConfig.compile``).

A step of a small model is ~180 PyTorch calls, each a few microseconds of dispatch around a tiny
kernel; compiled (TorchInductor: weights frozen in and packed, elementwise work fused, a C++
wrapper calling the kernels without Python between them), the tiny model decoded 1.3-1.4x faster
greedy and 1.1x with beam 4 on an AMX Xeon (docs/decoding.md). The price is a compile of 15-25 s
per search in every process (frozen weights bypass TorchInductor's graph cache; only its C++
builds are reused from disk) and a C++ compiler on the host: for servers and long inputs, not
for a file of a few thousand lines.

The compiled step sees shapes that do not change from step to step: it writes the new keys and
values into the cache's whole buffers at the step's position (a tensor, not a Python number) and
attends over the whole buffers, masking positions not yet written. Batch size, source length and
buffer capacity are dynamic dimensions, so one compile serves every batch of a search (beam
search and greedy compile one each). A size of 1 would compile a graph of its own (TorchInductor
specialises on it), so steps of one row or one source run eagerly.
"""

from __future__ import annotations

import os
import shutil
from typing import cast

import torch
import torch._inductor.config as inductor_config
from torch import Tensor

from ..attention import KVCache
from ..layers import DecoderLayer
from ..transformer import Decoder, DecoderState, Transformer
from .packed import pack_linear_maps, packs, plain_copy

# weights frozen in as constants (so TorchInductor packs them for oneDNN and fuses each residual
# addition into its linear map), kernels called from C++; set around each call, since
# ``torch.compile(options=...)`` was measured not to freeze. On a GPU the kernels are Triton's,
# launched by TorchInductor's Python wrapper: its C++ one wants the CUDA toolkit's headers,
# which a bare image may lack (docs/gpu.md)
INDUCTOR_CONFIG = {"freezing": True, "cpp_wrapper": True}
GPU_INDUCTOR_CONFIG = {"freezing": True}


def compile_decoder(model: Transformer) -> Transformer:
    """A copy of ``model`` (fp32 or bf16, unpacked) whose decoder steps run compiled; its encoder
    and generator, which run eagerly, get oneDNN's packed maps where ``packs``, as an eager
    model's do. Raises ValueError without a C++ compiler."""
    compiler = os.environ.get("CXX", "g++")
    if shutil.which(compiler) is None:
        raise ValueError(f"compile needs a C++ compiler ({compiler!r} not found; set $CXX)")
    model = plain_copy(model)
    model.decoder = CompiledDecoder(model.decoder)
    weight = next(model.parameters())
    if packs(weight.device, weight.dtype):
        pack_linear_maps(model.encoder)
        pack_linear_maps(model.generator)
    return model.eval()


class CompiledDecoder(Decoder):
    """The same decoder layers, whose one-token steps without attention weights run compiled;
    any other step (several tokens, weights asked for, gradients) runs as ``Decoder``'s."""

    def __init__(self, decoder: Decoder) -> None:
        layers = cast(list[DecoderLayer], list(decoder.layers))
        attention = layers[0].self_attn
        super().__init__(layers, attention.d_model, final_norm=False)
        self.norm = decoder.norm
        self.h, self.d_k = attention.h, attention.d_k
        self.compiled_step = torch.compile(self.step_in_place, fullgraph=True)

    def forward_step(
        self, x: Tensor, state: DecoderState, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor]]:
        if need_weights or x.size(1) != 1 or torch.is_grad_enabled() or _any_one(x, state):
            return super().forward_step(x, state, need_weights)
        shape = (x.size(0), self.h, self.d_k)
        position = torch.tensor([state.position], device=x.device)
        buffers = [cache.claim(1, shape, x.device) for cache in state.self_attn]
        keys, values = [k for k, _ in buffers], [v for _, v in buffers]
        memory = [cache.view() for cache in state.cross_attn]
        memory_keys, memory_values = [k for k, _ in memory], [v for _, v in memory]
        memory_bias = state.memory_bias
        if memory_bias is None:  # one graph: a bias of zeros rather than none
            sources, s = memory_keys[0].size(0), memory_keys[0].size(2)
            memory_bias = x.new_zeros(sources * shape[1], 1, s, dtype=torch.float32)
        _mark_dynamic([x], [0])
        _mark_dynamic(keys + values + memory_keys + memory_values, [0, 2])
        _mark_dynamic([memory_bias], [0, 2])
        options = INDUCTOR_CONFIG if x.device.type == "cpu" else GPU_INDUCTOR_CONFIG
        with inductor_config.patch(options):
            hidden = self.compiled_step(
                x, position, keys, values, memory_keys, memory_values, memory_bias, state.group
            )
        state.position += 1
        return hidden, []

    def step_in_place(
        self,
        x: Tensor,
        position: Tensor,
        keys: list[Tensor],
        values: list[Tensor],
        memory_keys: list[Tensor],
        memory_values: list[Tensor],
        memory_bias: Tensor,
        group: int,
    ) -> Tensor:
        """One new position (b x 1 x d_model) through every layer, its keys/values written into
        the whole buffers ``keys``/``values`` (b x h x capacity x d_k) at ``position``."""
        capacity = keys[0].size(2)
        unwritten = torch.arange(capacity, device=x.device) > position
        bias = torch.zeros(capacity, device=x.device).masked_fill(unwritten, float("-inf"))
        layers = cast(list[DecoderLayer], self.layers)
        for layer, key, value, memory_key, memory_value in zip(
            layers, keys, values, memory_keys, memory_values, strict=True
        ):
            memory = KVCache()
            memory.fill(memory_key, memory_value)
            in_place = InPlaceCache(key, value, position, bias)
            x, _ = layer.forward_step(x, in_place, memory, memory_bias, group)
        return self.norm(x)


class InPlaceCache(KVCache):
    """A cache's whole buffers seen by a compiled step: ``append`` writes the new position at
    ``position`` and returns the whole buffers, which ``bias`` masks beyond it."""

    def __init__(self, key: Tensor, value: Tensor, position: Tensor, bias: Tensor) -> None:
        super().__init__()
        self.key, self.value, self.position, self.mask_bias = key, value, position, bias

    def append(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        assert self.key is not None and self.value is not None
        self.key.index_copy_(2, self.position, key.to(self.key.dtype))
        self.value.index_copy_(2, self.position, value.to(self.value.dtype))
        return self.key, self.value

    def bias(self, n: int) -> Tensor | None:
        return self.mask_bias


def _any_one(x: Tensor, state: DecoderState) -> bool:
    """Whether a dynamic size is 1 (one row, one source, a one-token source): TorchInductor would
    compile a graph of its own for it, so such steps run eagerly."""
    memory_key = state.cross_attn[0].key
    assert memory_key is not None
    return x.size(0) == 1 or memory_key.size(0) == 1 or memory_key.size(2) == 1


def _mark_dynamic(tensors: list[Tensor], dims: list[int]) -> None:
    """Compile for any size of ``dims`` rather than the first seen."""
    for tensor in tensors:
        for dim in dims:
            torch._dynamo.maybe_mark_dynamic(tensor, dim)

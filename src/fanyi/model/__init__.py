"""Figure 1 of "Attention Is All You Need", bottom to top.

embedding.py      token embeddings × √d_model, positional encodings (§3.4, §3.5)
attention.py      scaled dot-product attention (eq. 1), multi-head attention (§3.2.2), KV cache
feed_forward.py   position-wise feed-forward network (eq. 2)
layers.py         residual + LayerNorm sub-layer connection, encoder layer, decoder layer (§3.1)
transformer.py    encoder and decoder stacks, generator, the whole model (§3.1)
masks.py          padding and subsequent masks (§3.2.3)
config.py         the hyper-parameters (Table 3)
decoding.py       the protocol searches decode with: start, step, generator, members
inference/        model → model transforms for decoding: bf16 (packed), int8, compiled steps
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .attention import KVCache, MultiHeadAttention, scaled_dot_product_attention
    from .config import ModelConfig
    from .decoding import Model, State
    from .masks import padding_mask, subsequent_mask, target_mask
    from .transformer import DecoderState, Transformer, build_model

# Each public name's module, imported on first use (PEP 562): importing one light module of
# this package (its options, its configs) imports none of the others, nor torch.
_HOMES = {
    "KVCache": ".attention",
    "MultiHeadAttention": ".attention",
    "scaled_dot_product_attention": ".attention",
    "ModelConfig": ".config",
    "Model": ".decoding",
    "State": ".decoding",
    "padding_mask": ".masks",
    "subsequent_mask": ".masks",
    "target_mask": ".masks",
    "DecoderState": ".transformer",
    "Transformer": ".transformer",
    "build_model": ".transformer",
}
__all__ = [
    "DecoderState",
    "KVCache",
    "Model",
    "ModelConfig",
    "MultiHeadAttention",
    "State",
    "Transformer",
    "build_model",
    "padding_mask",
    "scaled_dot_product_attention",
    "subsequent_mask",
    "target_mask",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

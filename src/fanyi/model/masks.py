"""Masks: which positions may attend to which (§3.2.3).

Convention throughout fanyi: a boolean mask is ``True`` where attention is *allowed*, the same
convention as ``torch.nn.functional.scaled_dot_product_attention``.
"""

from __future__ import annotations

import torch
from torch import Tensor


def padding_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """Allow attention to every non-padding key: b x s → b x 1 x 1 x s."""
    return (tokens != pad_id)[:, None, None, :]


def subsequent_mask(size: int, device: torch.device | None = None) -> Tensor:
    """Allow position i to attend to positions ≤ i only: 1 x 1 x size x size (lower triangle)."""
    return torch.ones(size, size, dtype=torch.bool, device=device).tril()[None, None]


def target_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """Decoder self-attention mask: not a padding key and not a future position. b x 1 x t x t."""
    return padding_mask(tokens, pad_id) & subsequent_mask(tokens.size(1), tokens.device)

"""Input side of Figure 1: token embeddings (§3.4) plus positional encodings (§3.5)."""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn


class Embeddings(nn.Module):
    """Learned token embeddings multiplied by √d_model (§3.4; ``scale=False``: not multiplied)."""

    def __init__(self, vocab_size: int, d_model: int, pad_id: int, scale: bool = True) -> None:
        super().__init__()
        self.lut = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        self.scale = math.sqrt(d_model) if scale else 1.0

    def forward(self, tokens: Tensor) -> Tensor:  # b x t → b x t x d_model
        return self.lut(tokens) * self.scale


def sinusoid_table(max_len: int, d_model: int, layout: str = "interleaved") -> Tensor:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(...) (§3.5).

    ``layout="concat"`` puts the same features in another order, all sines then all cosines
    (tensor2tensor's and Marian's layout). Computed on the CPU whatever the default device: on
    the meta device (a model built to check a checkpoint's shapes) arange would import dynamo.
    """
    cpu = torch.device("cpu")
    position = torch.arange(max_len, dtype=torch.float64, device=cpu)[:, None]
    steps = torch.arange(0, d_model, 2, dtype=torch.float64, device=cpu)
    inv_freq = torch.pow(10000.0, -steps / d_model)
    sines = torch.sin(position * inv_freq)
    cosines = torch.cos(position * inv_freq[: d_model // 2])
    if layout == "concat":
        return torch.cat([sines, cosines], dim=1).float()
    table = torch.zeros(max_len, d_model, dtype=torch.float64, device=cpu)
    table[:, 0::2], table[:, 1::2] = sines, cosines
    return table.float()


class SinusoidalPositionalEncoding(nn.Module):
    """Fixed sinusoids added to the embeddings (§3.5); needs no training."""

    table: Tensor  # max_len x d_model, a buffer

    def __init__(self, d_model: int, max_len: int, layout: str = "interleaved") -> None:
        super().__init__()
        self.register_buffer("table", sinusoid_table(max_len, d_model, layout), persistent=False)

    def forward(self, length: int, start: int = 0) -> Tensor:  # → length x d_model
        return self.table[start : start + length]


class LearnedPositionalEncoding(nn.Module):
    """Learned position embeddings, the alternative of §3.5 (Table 3, row E)."""

    def __init__(self, d_model: int, max_len: int) -> None:
        super().__init__()
        self.table = nn.Embedding(max_len, d_model)

    def forward(self, length: int, start: int = 0) -> Tensor:  # → length x d_model
        return self.table.weight[start : start + length]


class InputEmbedding(nn.Module):
    """Dropout(token embedding · √d_model + positional encoding), the bottom of each stack."""

    def __init__(self, embeddings: Embeddings, positional: nn.Module, max_len: int, p: float):
        super().__init__()
        self.embeddings = embeddings
        self.positional = positional
        self.max_len = max_len
        self.dropout = nn.Dropout(p)

    def forward(self, tokens: Tensor, start: int = 0) -> Tensor:
        """Embed ``tokens`` (b x t) that sit at positions ``start … start+t-1``."""
        length = tokens.size(1)
        if start + length > self.max_len:
            raise ValueError(
                f"sequence of {start + length} positions exceeds the model's max_len={self.max_len}"
            )
        return self.dropout(self.embeddings(tokens) + self.positional(length, start))

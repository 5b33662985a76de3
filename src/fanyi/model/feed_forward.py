"""Position-wise feed-forward network, eq. 2: FFN(x) = max(0, x W₁ + b₁) W₂ + b₂ (§3.3)."""

from __future__ import annotations

from collections.abc import Callable

import torch.nn.functional as F
from torch import Tensor, nn

# eq. 2 uses ReLU; other Transformers (MarianMT: swish) use another activation in its place.
ACTIVATIONS: dict[str, Callable[[Tensor], Tensor]] = {
    "relu": F.relu,
    "gelu": F.gelu,
    "swish": F.silu,
}


class PositionwiseFeedForward(nn.Module):
    """Two linear maps with a ReLU (or ``activation``) between, applied to each position alike."""

    def __init__(
        self, d_model: int, d_ff: int, dropout: float = 0.0, activation: str = "relu"
    ) -> None:
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff)
        self.w_2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = ACTIVATIONS[activation]

    def forward(self, x: Tensor) -> Tensor:  # b x t x d_model → b x t x d_model
        hidden = self.activation(self.w_1(x))
        return self.w_2(self.dropout(hidden) if self.training else hidden)

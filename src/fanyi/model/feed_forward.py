"""Position-wise feed-forward network, eq. 2: FFN(x) = max(0, x W₁ + b₁) W₂ + b₂ (§3.3)."""

from __future__ import annotations

from torch import Tensor, nn


class PositionwiseFeedForward(nn.Module):
    """Two linear maps with a ReLU between, applied to each position alike (d_model → d_ff → d_model)."""

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff)
        self.w_2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:  # b x t x d_model → b x t x d_model
        return self.w_2(self.dropout(self.w_1(x).relu()))

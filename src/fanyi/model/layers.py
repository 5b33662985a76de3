"""Sub-layer connection (§3.1, §5.4), encoder layer and decoder layer (Figure 1)."""

from __future__ import annotations

from collections.abc import Callable

from torch import Tensor, nn

from .attention import KVCache, MultiHeadAttention
from .config import ModelConfig
from .feed_forward import PositionwiseFeedForward
from .unpadded import Unpadded


class SublayerConnection(nn.Module):
    """Residual connection and layer normalisation around one sub-layer.

    post-norm (the paper, §3.1): LayerNorm(x + Dropout(Sublayer(x)))
    pre-norm (The Annotated Transformer): x + Dropout(Sublayer(LayerNorm(x)))
    """

    def __init__(self, d_model: int, dropout: float, pre_norm: bool) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.pre_norm = pre_norm

    def forward(self, x: Tensor, sublayer: Callable[[Tensor], Tensor]) -> Tensor:
        y = sublayer(self.norm(x) if self.pre_norm else x)
        if self.training:  # in evaluation dropout is the identity: a decoding step skips the call
            y = self.dropout(y)
        return x + y if self.pre_norm else self.norm(x + y)


class EncoderLayer(nn.Module):
    """Self-attention, then feed-forward, each in a sub-layer connection (§3.1, left of Figure 1)."""

    def __init__(self, c: ModelConfig) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(c.d_model, c.h, c.attention_dropout)
        self.feed_forward = PositionwiseFeedForward(c.d_model, c.d_ff, c.ff_dropout, c.activation)
        self.sublayers = _sublayer_connections(c, 2)

    def forward(self, x: Tensor, src_mask: Tensor | None) -> Tensor:  # b x s x d_model
        x = self.sublayers[0](x, lambda y: self.self_attn(y, mask=src_mask)[0])
        return self.sublayers[1](x, self.feed_forward)

    def forward_unpadded(self, x: Tensor, tokens: Unpadded, src_mask: Tensor) -> Tensor:
        """The same on a batch's tokens without their padding (n x d_model, ``unpadded.py``)."""
        x = self.sublayers[0](x, lambda y: self.self_attn.forward_unpadded(y, tokens, src_mask))
        return self.sublayers[1](x, self.feed_forward)


class DecoderLayer(nn.Module):
    """Masked self-attention, encoder-decoder attention, feed-forward (§3.1, right of Figure 1)."""

    def __init__(self, c: ModelConfig) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(c.d_model, c.h, c.attention_dropout)
        self.cross_attn = MultiHeadAttention(c.d_model, c.h, c.attention_dropout)
        self.feed_forward = PositionwiseFeedForward(c.d_model, c.d_ff, c.ff_dropout, c.activation)
        self.sublayers = _sublayer_connections(c, 3)

    def forward(
        self,
        x: Tensor,
        memory: Tensor,
        src_mask: Tensor | None,
        tgt_mask: Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """Whole target at once (training). Without ``tgt_mask`` the mask is causal only."""
        causal = tgt_mask is None
        x = self.sublayers[0](x, lambda y: self.self_attn(y, mask=tgt_mask, causal=causal)[0])
        weights: list[Tensor | None] = [None]

        def cross(y: Tensor) -> Tensor:
            out, weights[0] = self.cross_attn(y, memory, src_mask, need_weights=need_weights)
            return out

        x = self.sublayers[1](x, cross)
        return self.sublayers[2](x, self.feed_forward), weights[0]

    def forward_step(
        self,
        x: Tensor,
        self_cache: KVCache,
        cross_cache: KVCache,
        memory_bias: Tensor | None,
        group: int = 1,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """New target positions only, reusing cached self-attention and memory keys/values.

        The rows come in runs of ``group`` per source (beams): their queries attend to the
        source's memory together, as ``group`` x n query positions of one row. ``memory_bias``
        (sources·h x 1 x s): 0 on source tokens, -inf on padding (``DecoderState``).
        """
        x = self.sublayers[0](x, lambda y: self.self_attn.forward_step(y, self_cache)[0])
        weights: list[Tensor | None] = [None]
        memory_key, memory_value = cross_cache.view()

        def cross(y: Tensor) -> Tensor:
            b, n, d = y.shape
            q = self.cross_attn.project_query(y.reshape(b // group, group * n, d))
            out, w = self.cross_attn.attend_step(
                q, memory_key, memory_value, memory_bias, need_weights
            )
            if w is not None:  # b/group x h x group·n x s → b x h x n x s
                w = w.unflatten(2, (group, n)).transpose(1, 2).flatten(0, 1)
            weights[0] = w
            return out.reshape(b, n, d)

        x = self.sublayers[1](x, cross)
        return self.sublayers[2](x, self.feed_forward), weights[0]


def _sublayer_connections(c: ModelConfig, n: int) -> nn.ModuleList:
    return nn.ModuleList(
        [SublayerConnection(c.d_model, c.dropout, c.norm == "pre") for _ in range(n)]
    )

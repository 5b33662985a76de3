"""Scaled dot-product attention (eq. 1) and multi-head attention (§3.2.2), with a key/value cache.

Shapes: b = batch, h = heads, t = query length, s = key length, d_k = d_model / h.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .unpadded import Unpadded


def scaled_dot_product_attention(
    query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None = None, dropout_p: float = 0.0
) -> tuple[Tensor, Tensor]:
    """Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V, eq. 1, written out so it can return weights.

    ``mask`` is boolean, ``True`` where attention is allowed, broadcastable to b x h x t x s.
    Returns the output (b x h x t x d_k) and the attention weights (b x h x t x s).
    """
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.size(-1))  # b x h x t x s
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p)
    return weights @ value, weights


class KVCache:
    """Keys and values of one attention layer, kept between decoding steps.

    Decoder self-attention appends one step at a time; encoder-decoder attention fills it once
    per source. Storage grows by doubling so a step costs no copy of the past, and reordering
    rows (beam search) copies only the positions held into a second buffer kept for the
    purpose, so a step allocates nothing. Keys and values are kept in float32 whatever the
    model's dtype (``MultiHeadAttention.attend_step``); buffers start as zeros, so positions
    not yet held are finite (a compiled step attends over whole buffers, ``inference/compiled.py``).
    """

    def __init__(self) -> None:
        self.key: Tensor | None = None  # b x h x capacity x d_k
        self.value: Tensor | None = None
        self.length = 0
        self.spare: tuple[Tensor, Tensor] | None = None  # the buffers ``select`` writes into

    def fill(self, key: Tensor, value: Tensor) -> None:
        """Store keys/values computed once (encoder-decoder attention over the memory).

        They are made contiguous here, once: strided ones would be copied at every step.
        """
        self.key, self.value = key.float().contiguous(), value.float().contiguous()
        self.length = key.size(2)

    def view(self) -> tuple[Tensor, Tensor]:
        """All keys and values stored so far: b x h x length x d_k each."""
        assert self.key is not None and self.value is not None, "empty cache"
        return self.key[:, :, : self.length], self.value[:, :, : self.length]

    def append(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        """Add ``key``/``value`` (b x h x n x d_k); return all keys and values so far."""
        b, h, n, d_k = key.shape
        whole_key, whole_value = self.claim(n, (b, h, d_k), key.device)
        whole_key[:, :, self.length - n : self.length] = key
        whole_value[:, :, self.length - n : self.length] = value
        return self.view()

    def claim(
        self, n: int, shape: tuple[int, int, int], device: torch.device
    ) -> tuple[Tensor, Tensor]:
        """Count ``n`` more positions of keys/values shaped ``shape`` (b, h, d_k) as held, growing
        the buffers if need be; return the whole buffers (b x h x capacity x d_k) for the caller
        to write those positions."""
        if self.key is None or self.length + n > self.key.size(2):
            self._grow(shape, device, max(2 * (self.length + n), 16))
        assert self.key is not None and self.value is not None
        self.length += n
        return self.key, self.value

    def bias(self, n: int) -> Tensor | None:
        """What the ``n`` newest positions may see of the held ones, as an additive bias (n x
        length: 0 allowed, -inf not): every earlier position and, among themselves, only earlier
        ones. None for one position, which sees them all."""
        if n == 1:
            return None
        assert self.key is not None
        allowed = torch.ones(n, self.length, dtype=torch.bool, device=self.key.device)
        bias = self.key.new_zeros(n, self.length)
        return bias.masked_fill(~allowed.tril(self.length - n), float("-inf"))

    def _grow(self, shape: tuple[int, int, int], device: torch.device, capacity: int) -> None:
        b, h, d_k = shape
        key = torch.zeros(b, h, capacity, d_k, device=device)
        value = torch.zeros(b, h, capacity, d_k, device=device)
        if self.key is not None and self.value is not None:
            key[:, :, : self.length] = self.key[:, :, : self.length]
            value[:, :, : self.length] = self.value[:, :, : self.length]
        self.key, self.value, self.spare = key, value, None

    def select(self, index: Tensor) -> None:
        """Keep batch rows ``index`` (in that order): beam reordering and dropping finished rows.

        The rows held are gathered into the spare buffers, which then become the cache (and the
        old ones the spare), so the capacity is kept and the next ``append`` writes in place.
        """
        if self.key is None or self.value is None:
            return
        rows = index.numel()
        if self.spare is None or self.spare[0].size(0) < rows:
            shape = (rows, *self.key.shape[1:])
            self.spare = (self.key.new_zeros(shape), self.value.new_zeros(shape))
        key, value = self.spare[0][:rows], self.spare[1][:rows]
        held = slice(0, self.length)
        torch.index_select(self.key[:, :, held], 0, index, out=key[:, :, held])
        torch.index_select(self.value[:, :, held], 0, index, out=value[:, :, held])
        self.spare = (self.key, self.value)
        self.key, self.value = key, value


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head₁, …, head_h) Wᴼ, headᵢ = Attention(Q Wᵢᵠ, K Wᵢᴷ, V Wᵢⱽ).

    Wᵠ, Wᴷ and Wⱽ are stored stacked in one ``in_proj`` (3·d_model x d_model), the layout of
    ``torch.nn.MultiheadAttention``: self-attention projects Q, K and V in a single matmul,
    encoder-decoder attention projects Q from the decoder and K, V (once) from the memory.
    """

    def __init__(self, d_model: int, h: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.d_model, self.h, self.d_k = d_model, h, d_model // h
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def split_heads(self, x: Tensor) -> Tensor:  # b x t x (h·d_k) → b x h x t x d_k
        return x.unflatten(-1, (self.h, self.d_k)).transpose(1, 2)

    def project_query(self, x: Tensor) -> Tensor:
        d = self.d_model
        return self.split_heads(F.linear(x, self.in_proj.weight[:d], self.in_proj.bias[:d]))

    def project_key_value(self, x: Tensor) -> tuple[Tensor, Tensor]:
        d = self.d_model
        kv = F.linear(x, self.in_proj.weight[d:], self.in_proj.bias[d:])  # b x s x 2d
        key, value = kv.chunk(2, dim=-1)
        return self.split_heads(key), self.split_heads(value)

    def project_qkv(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        return self.split_qkv(self.in_proj(x))

    def split_qkv(self, qkv: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """b x t x 3·d_model (Q, K and V side by side) → Q, K, V, each b x h x t x d_k."""
        q, k, v = qkv.chunk(3, dim=-1)
        return self.split_heads(q), self.split_heads(k), self.split_heads(v)

    def concat_heads(
        self,
        q: Tensor,
        k: Tensor,
        v: Tensor,
        mask: Tensor | None,
        causal: bool = False,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """Attend per head (eq. 1) and concatenate: Concat(head₁, …, head_h), before Wᴼ, as
        b x t x d_model (+ weights)."""
        p = self.dropout if self.training else 0.0
        # On a CPU, training and short inputs (a few queries: a short teacher-forced target) take
        # the explicit path too: torch's CPU flash kernel was measured up to 3x slower for the
        # backward of sentence-length inputs in bf16 (benchmarks/train_step.py), and 1.1-4x
        # slower for a few queries (benchmarks/decode.py, before decoding steps got their own
        # ``attend_step``).
        on_cpu = q.device.type == "cpu"
        explicit = need_weights or (on_cpu and (q.requires_grad or q.size(2) <= 8))
        weights = None
        if explicit:
            if causal:
                causal_mask = torch.ones(q.size(2), k.size(2), dtype=torch.bool, device=q.device)
                mask = causal_mask.tril() if mask is None else mask & causal_mask.tril()
            out, weights = scaled_dot_product_attention(q, k, v, mask, p)
        else:
            out = F.scaled_dot_product_attention(q, k, v, mask, p, is_causal=causal)
        return out.transpose(1, 2).flatten(2), weights if need_weights else None  # b x t x d_model

    def forward(
        self,
        query: Tensor,
        key_value: Tensor | None = None,
        mask: Tensor | None = None,
        causal: bool = False,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """Self-attention when ``key_value`` is None, else attention from ``query`` to it."""
        if key_value is None:
            q, k, v = self.project_qkv(query)
        else:
            q = self.project_query(query)
            k, v = self.project_key_value(key_value)
        heads, weights = self.concat_heads(q, k, v, mask, causal, need_weights)
        return self.out_proj(heads), weights  # b x t x d_model (+ weights)

    def forward_unpadded(self, x: Tensor, tokens: Unpadded, mask: Tensor) -> Tensor:
        """Self-attention of a batch's tokens without their padding (n x d_model, ``tokens``):
        Wᵠᴷⱽ and Wᴼ see the n tokens only, eq. 1 the padded batch (``mask``: b x 1 x 1 x s)."""
        heads, _ = self.concat_heads(*self.split_qkv(tokens.pad(self.in_proj(x))), mask)
        return self.out_proj(tokens.unpad(heads))

    def attend_step(
        self, q: Tensor, keys: Tensor, values: Tensor, bias: Tensor | None, need_weights: bool
    ) -> tuple[Tensor, Tensor | None]:
        """eq. 1 and Wᴼ for a decoding step's few queries, as batched products over b·h.

        q: b x h x t x d_k; keys, values: b x h x s x d_k (float32, ``KVCache``); ``bias``
        (broadcastable to b·h x t x s): 0 where attention is allowed, -inf elsewhere. The
        products run in float32 whatever the model's dtype: for a step's few rows a CPU's
        float32 batched products are about twice as fast as bf16's.
        Returns b x t x d_model in the model's dtype (+ weights, b x h x t x s).
        """
        b, h, t, d_k = q.shape
        scale = 1.0 / math.sqrt(d_k)
        keys_t = keys.flatten(0, 1).transpose(1, 2)  # b·h x d_k x s, a view of the cache
        queries = q.reshape(b * h, t, d_k).float()
        if bias is None:
            scores = torch.baddbmm(keys_t.new_zeros(()), queries, keys_t, beta=0, alpha=scale)
        else:
            scores = torch.baddbmm(bias, queries, keys_t, alpha=scale)
        weights = scores.softmax(dim=-1)  # b·h x t x s
        out = torch.bmm(weights, values.flatten(0, 1)).to(q.dtype)  # b·h x t x d_k
        out = out.unflatten(0, (b, h)).transpose(1, 2).reshape(b, t, self.d_model)
        return self.out_proj(out), weights.unflatten(0, (b, h)) if need_weights else None

    def forward_step(
        self, query: Tensor, cache: KVCache, need_weights: bool = False
    ) -> tuple[Tensor, Tensor | None]:
        """Decoder self-attention for ``n`` new positions, appending their keys/values to ``cache``.

        The new positions see every cached position and, among themselves, only earlier ones
        (``cache.bias``).
        """
        q, k, v = self.project_qkv(query)
        keys, values = cache.append(k, v)
        return self.attend_step(q, keys, values, cache.bias(q.size(2)), need_weights)

"""Encoder and decoder stacks, the generator, and the whole encoder-decoder model (§3.1, Figure 1)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import cast

import torch
from torch import Tensor, nn

from .attention import KVCache
from .config import ModelConfig
from .embedding import (
    Embeddings,
    InputEmbedding,
    LearnedPositionalEncoding,
    SinusoidalPositionalEncoding,
)
from .layers import DecoderLayer, EncoderLayer
from .masks import padding_mask
from .unpadded import Unpadded


class Encoder(nn.Module):
    """A stack of N_enc encoder layers (plus a final LayerNorm, by default when pre-norm)."""

    def __init__(self, layers: list[EncoderLayer], d_model: int, final_norm: bool) -> None:
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.norm = nn.LayerNorm(d_model) if final_norm else nn.Identity()

    def forward(self, x: Tensor, src_mask: Tensor | None) -> Tensor:  # b x s x d_model
        """Without gradients on a CPU, the position-wise parts skip the padding
        (``unpadded.py``), whose memory rows come out zero; else (and when traced by
        ``torch.compile``: the token count is data-dependent) every position is computed."""
        if src_mask is not None and _skips_padding(x):
            tokens = Unpadded(src_mask)
            y = tokens.unpad(x)
            for layer in self.layers:
                y = cast(EncoderLayer, layer).forward_unpadded(y, tokens, src_mask)
            return tokens.pad(self.norm(y))
        for layer in self.layers:
            x = layer(x, src_mask)
        return self.norm(x)


def _skips_padding(x: Tensor) -> bool:
    """Whether the encoder runs its position-wise parts on the tokens alone (``Encoder``)."""
    eager = not torch.is_grad_enabled() and not torch.compiler.is_compiling()
    return x.device.type == "cpu" and eager


class DecoderState:
    """Incremental state of the decoder: per layer, a self-attention cache that grows by one step
    and the encoder-decoder keys/values computed once from the memory.

    With beam search each source has ``group`` (= k) consecutive target rows, its beams; the
    memory keys/values are kept once per source and the k beams attend to them together.
    """

    def __init__(self, n_layers: int, src_mask: Tensor | None, h: int, group: int = 1) -> None:
        self.self_attn = [KVCache() for _ in range(n_layers)]
        self.cross_attn = [KVCache() for _ in range(n_layers)]
        self.memory_bias = None  # b·h x 1 x s: 0 on tokens, -inf on padding; None: no padding
        if src_mask is not None:
            bias = src_mask.new_zeros(src_mask.shape, dtype=torch.float32)
            bias = bias.masked_fill(~src_mask, float("-inf"))
            self.memory_bias = bias.expand(-1, h, -1, -1).flatten(0, 1)
        self.h = h
        self.group = group  # target rows per source
        self.position = 0  # target positions decoded so far

    def select(self, index: Tensor) -> None:
        """Keep target rows ``index``: reorder beams, or drop finished sentences.

        With groups, ``index`` keeps whole sources: each run of ``group`` entries holds rows of
        one source, whose memory is kept.
        """
        for cache in self.self_attn:
            cache.select(index)
        sources = index
        if self.group > 1:
            sources = index[:: self.group].div(self.group, rounding_mode="floor")
        for cache in self.cross_attn:
            cache.select(sources)
        if self.memory_bias is not None:
            by_source = self.memory_bias.unflatten(0, (-1, self.h))
            self.memory_bias = by_source.index_select(0, sources).flatten(0, 1)

    def reorder(self, index: Tensor) -> None:
        """Reorder rows among the beams of each source (no row moves to another source): only the
        self-attention caches change, the memory keys/values being the source's."""
        for cache in self.self_attn:
            cache.select(index)


class Decoder(nn.Module):
    """A stack of N_dec decoder layers (plus a final LayerNorm, by default when pre-norm)."""

    def __init__(self, layers: list[DecoderLayer], d_model: int, final_norm: bool) -> None:
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.norm = nn.LayerNorm(d_model) if final_norm else nn.Identity()

    def forward(
        self,
        x: Tensor,
        memory: Tensor,
        src_mask: Tensor | None,
        tgt_mask: Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[Tensor, list[Tensor]]:
        """Decode a whole target prefix; returns b x t x d_model and per-layer cross-attention."""
        weights = []
        for layer in self.layers:
            x, w = layer(x, memory, src_mask, tgt_mask, need_weights)
            if w is not None:
                weights.append(w)
        return self.norm(x), weights

    def start(self, memory: Tensor, src_mask: Tensor | None, group: int = 1) -> DecoderState:
        """Project the memory into every layer's encoder-decoder keys/values, once per source
        (which ``group`` target rows will share)."""
        heads = cast(DecoderLayer, self.layers[0]).cross_attn.h
        state = DecoderState(len(self.layers), src_mask, heads, group)
        for layer, cache in zip(
            cast(list[DecoderLayer], self.layers), state.cross_attn, strict=True
        ):
            cache.fill(*layer.cross_attn.project_key_value(memory))
        return state

    def forward_step(
        self, x: Tensor, state: DecoderState, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor]]:
        """Decode new positions only (b x n x d_model), updating ``state``."""
        weights = []
        for layer, self_cache, cross_cache in zip(
            cast(list[DecoderLayer], self.layers), state.self_attn, state.cross_attn, strict=True
        ):
            x, w = layer.forward_step(
                x, self_cache, cross_cache, state.memory_bias, state.group, need_weights
            )
            if w is not None:
                weights.append(w)
        state.position += x.size(1)
        return self.norm(x), weights


class Generator(nn.Module):
    """The final linear map and softmax (§3.4): decoder output → log-probabilities over the vocabulary."""

    def __init__(self, proj: nn.Module) -> None:
        super().__init__()
        self.proj = proj  # an nn.Linear(d_model, V) when trained; packed or int8 to decode

    def logits(self, x: Tensor) -> Tensor:  # b x t x d_model → b x t x V
        return self.proj(x)

    def forward(self, x: Tensor) -> Tensor:
        return self.proj(x).log_softmax(dim=-1)


class Transformer(nn.Module):
    """The encoder-decoder Transformer of Figure 1."""

    def __init__(self, config: ModelConfig, initialise: bool = True) -> None:
        """``initialise=False`` skips ``reset_parameters``, for weights about to be loaded."""
        super().__init__()
        c = self.config = config
        final_norm = c.has_final_norm
        self.src_embed = _input_embedding(c, c.src_vocab_size)
        self.tgt_embed = _input_embedding(c, c.tgt_vocab_size)
        self.encoder = Encoder([EncoderLayer(c) for _ in range(c.N_enc)], c.d_model, final_norm)
        self.decoder = Decoder([DecoderLayer(c) for _ in range(c.N_dec)], c.d_model, final_norm)
        self.generator = Generator(nn.Linear(c.d_model, c.tgt_vocab_size))
        if initialise:
            self.reset_parameters()
        if c.tie_embeddings:  # §3.4: one weight matrix for both embeddings and the pre-softmax map
            shared = self.tgt_embed.embeddings.lut.weight
            self.src_embed.embeddings.lut.weight = shared
            self.generator.proj.weight = shared

    def reset_parameters(self) -> None:
        """Initialise as the paper's reference code (tensor2tensor) does.

        Weight matrices: Xavier-uniform. Token embeddings: N(0, d_model^−0.5), so that after the
        √d_model scaling they have unit variance, comparable to the positional encoding (Xavier
        on a small vocabulary would drown the positions). Padding rows are zero.
        """
        embeddings = {id(e.embeddings.lut.weight) for e in (self.src_embed, self.tgt_embed)}
        for p in self.parameters():
            if id(p) in embeddings:
                nn.init.normal_(p, mean=0.0, std=self.config.d_model**-0.5)
            elif p.dim() > 1:
                nn.init.xavier_uniform_(p)
        with torch.no_grad():
            for embed in (self.src_embed, self.tgt_embed):
                embed.embeddings.lut.weight[self.config.pad_id].zero_()

    def source_mask(self, src: Tensor) -> Tensor | None:
        """Padding mask of ``src`` (b x 1 x 1 x s), or None when nothing is padded (faster).

        Only on the CPU: deciding reads the mask back to the host, which on an accelerator waits
        for the device at every step, and under ``torch.compile`` splits the graph in two.
        """
        mask = padding_mask(src, self.config.pad_id)
        if src.device.type != "cpu" or torch.compiler.is_compiling():
            return mask
        return None if bool(mask.all()) else mask

    def encode(self, src: Tensor, src_mask: Tensor | None = None) -> Tensor:
        """Source ids (b x s) → memory (b x s x d_model)."""
        return self.encoder(self.src_embed(src), src_mask)

    def decode(
        self,
        tgt: Tensor,
        memory: Tensor,
        src_mask: Tensor | None,
        tgt_mask: Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[Tensor, list[Tensor]]:
        """Shifted target ids (b x t) → decoder output (b x t x d_model), cross-attention weights."""
        return self.decoder(self.tgt_embed(tgt), memory, src_mask, tgt_mask, need_weights)

    def forward(self, src: Tensor, tgt: Tensor) -> Tensor:
        """Teacher-forced log-probabilities of the next target token: b x t x V."""
        src_mask = self.source_mask(src)
        hidden, _ = self.decode(tgt, self.encode(src, src_mask), src_mask)
        return self.generator(hidden)

    def start_decoding(self, src: Tensor, beams: int = 1) -> DecoderState:
        """Encode ``src`` and prepare the incremental decoder state for it, with ``beams``
        consecutive target rows per source."""
        src_mask = self.source_mask(src)
        return self.decoder.start(self.encode(src, src_mask), src_mask, beams)

    def decode_step(
        self, tokens: Tensor, state: DecoderState, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor]]:
        """Feed the next target ids (b x n, usually n = 1); returns b x n x d_model and attention."""
        x = self.tgt_embed(tokens, start=state.position)
        return self.decoder.forward_step(x, state, need_weights)

    def members(self) -> list[Transformer]:
        """The models it decodes as (``decoding.Model``): itself alone."""
        return [self]

    def map(self, convert: Callable[[Transformer], Transformer]) -> Transformer:
        """``convert(self)``: a model → model transform, applied to each member."""
        return convert(self)

    def num_parameters(self) -> int:
        """Trainable parameters, each shared tensor counted once."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)


def _input_embedding(c: ModelConfig, vocab_size: int) -> InputEmbedding:
    positional: nn.Module
    if c.positional == "learned":
        positional = LearnedPositionalEncoding(c.d_model, c.max_len)
    else:
        positional = SinusoidalPositionalEncoding(c.d_model, c.max_len, c.sinusoid_layout)
    embeddings = Embeddings(vocab_size, c.d_model, c.pad_id, c.scale_embeddings)
    return InputEmbedding(embeddings, positional, c.max_len, c.dropout)


def build_model(config: ModelConfig, initialise: bool = True) -> Transformer:
    """The Transformer for ``config``, initialised (unless its weights are about to be loaded:
    then no layer draws random numbers either, which costs most of a load's time on a CPU and,
    on the meta device, imports torch's compiler)."""
    if initialise:
        return Transformer(config)
    with _INIT_LOCK, _layers_not_initialised():
        return Transformer(config, initialise=False)


_INIT_LOCK = threading.Lock()  # the patch below is process-wide: one model built at a time
_INITIALISERS = ("uniform_", "normal_", "kaiming_uniform_", "xavier_uniform_", "ones_", "zeros_")


@contextlib.contextmanager
def _layers_not_initialised() -> Iterator[None]:
    """``torch.nn.init``'s initialisers, which layers call as they are made, leave tensors as
    they are (as ``transformers``' ``no_init_weights`` does)."""
    saved = {name: getattr(nn.init, name) for name in _INITIALISERS}
    try:
        for name in _INITIALISERS:
            setattr(nn.init, name, _unchanged)
        yield
    finally:
        for name, initialiser in saved.items():
            setattr(nn.init, name, initialiser)


def _unchanged(tensor: Tensor, *args: object, **kwargs: object) -> Tensor:
    return tensor

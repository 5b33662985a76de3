"""The model's hyper-parameters (Table 3 of the paper names them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass
class ModelConfig:
    """Sizes and choices of one encoder-decoder Transformer.

    Defaults are the paper's base model (Table 3, row "base") with separate vocabularies.
    """

    src_vocab_size: int = 8000
    tgt_vocab_size: int = 8000
    d_model: int = 512
    d_ff: int = 2048
    h: int = 8
    N_enc: int = 6
    N_dec: int = 6
    dropout: float = 0.1  # P_drop: sub-layer outputs and embedding sums (§5.4)
    attention_dropout: float = 0.0  # on attention weights (not in the paper; tensor2tensor uses it)
    ff_dropout: float = 0.0  # between the two linear maps of the feed-forward network
    norm: Literal["post", "pre"] = "post"  # post: the paper; pre: The Annotated Transformer
    positional: Literal["sinusoidal", "learned"] = "sinusoidal"
    tie_embeddings: bool = False  # source = target embedding = output projection (§3.4)
    max_len: int = 1024
    pad_id: int = 0
    bos_id: int = 2  # the decoder's start token (Marian starts from its pad token)
    eos_id: int = 3
    # Where other Transformers differ (MarianMT); the defaults are the paper's choices.
    activation: Literal["relu", "gelu", "swish"] = "relu"  # of the feed-forward network (eq. 2)
    scale_embeddings: bool = True  # token embeddings × √d_model (§3.4)
    sinusoid_layout: Literal["interleaved", "concat"] = "interleaved"  # concat: sines, then cosines
    final_norm: bool | None = None  # a LayerNorm on top of each stack; None: with pre-norm only

    def __post_init__(self) -> None:
        for name in ("src_vocab_size", "tgt_vocab_size", "d_model", "d_ff", "h", "N_enc", "N_dec"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        if self.max_len < 2:  # BOS and one more position, at least
            raise ValueError(f"max_len must be at least 2, not {self.max_len}")
        for name in ("dropout", "attention_dropout", "ff_dropout"):
            if not 0 <= getattr(self, name) < 1:  # False for NaN too
                raise ValueError(f"{name} must be in [0, 1), not {getattr(self, name)}")
        if self.d_model % self.h:
            raise ValueError(f"d_model={self.d_model} is not divisible by h={self.h}")
        if self.tie_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("tie_embeddings needs one joint vocabulary (equal vocab sizes)")
        if self.norm not in ("post", "pre"):
            raise ValueError(f"norm must be 'post' or 'pre', not {self.norm!r}")
        if self.positional not in ("sinusoidal", "learned"):
            raise ValueError(
                f"positional must be 'sinusoidal' or 'learned', not {self.positional!r}"
            )
        if self.activation not in ("relu", "gelu", "swish"):
            raise ValueError(f"activation must be relu, gelu or swish, not {self.activation!r}")
        if self.sinusoid_layout not in ("interleaved", "concat"):
            raise ValueError(
                f"sinusoid_layout must be 'interleaved' or 'concat', not {self.sinusoid_layout!r}"
            )

    @property
    def has_final_norm(self) -> bool:
        """Whether each stack ends in a LayerNorm (by default: pre-norm models only)."""
        return self.norm == "pre" if self.final_norm is None else self.final_norm

    @property
    def d_k(self) -> int:
        """Per-head width d_k = d_v = d_model / h (§3.2.2)."""
        return self.d_model // self.h

"""MarianMT (Hugging Face) ⇄ fanyi: hyper-parameters and weight names, both ways.

MarianMT is the paper's post-norm Transformer with a few other choices, each a ``ModelConfig``
field here: swish in OPUS-MT models (``activation``), all sines before all cosines
(``sinusoid_layout="concat"``), the decoder started from the pad token (``bos_id``), an output
bias (``final_logits_bias``: fanyi's generator bias). Older configs may ask for pre-norm
(``normalize_before``) and final LayerNorms (``add_final_layer_norm``). Attention projects Q, K
and V with three linear maps where fanyi fuses them into one.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import Tensor

from ..model import ModelConfig
from ..model.embedding import sinusoid_table

ACTIVATIONS = {"relu": "relu", "gelu": "gelu", "swish": "swish", "silu": "swish"}

# A config key with this value asks for something fanyi does not compute: refused by name.
UNSUPPORTED = {
    "normalize_embedding": (True, "a LayerNorm after the embeddings"),
    "static_position_embeddings": (False, "learned position embeddings"),
    "add_bias_logits": (True, "a second output bias"),
}

# Per layer: (fanyi module, MarianMT module, kind).
ENCODER_LAYER = [
    ("self_attn", "self_attn", "attention"),
    ("sublayers.0.norm", "self_attn_layer_norm", "affine"),
    ("feed_forward.w_1", "fc1", "affine"),
    ("feed_forward.w_2", "fc2", "affine"),
    ("sublayers.1.norm", "final_layer_norm", "affine"),
]
DECODER_LAYER = [
    ("self_attn", "self_attn", "attention"),
    ("sublayers.0.norm", "self_attn_layer_norm", "affine"),
    ("cross_attn", "encoder_attn", "attention"),
    ("sublayers.1.norm", "encoder_attn_layer_norm", "affine"),
    ("feed_forward.w_1", "fc1", "affine"),
    ("feed_forward.w_2", "fc2", "affine"),
    ("sublayers.2.norm", "final_layer_norm", "affine"),
]
DECODER_EMBEDDING = "tgt_embed.embeddings.lut.weight"
EMBEDDINGS = {  # fanyi name: MarianMT names, the first one present wins
    "src_embed.embeddings.lut.weight": ("model.encoder.embed_tokens.weight", "model.shared.weight"),
    DECODER_EMBEDDING: ("model.decoder.embed_tokens.weight", "model.shared.weight"),
}
POSITIONS = ("model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight")


def model_config(config: dict[str, Any]) -> ModelConfig:
    """fanyi's ``ModelConfig`` for a MarianMT ``config.json``; what it cannot compute is refused."""
    refuse_unsupported(config)
    vocab = config["vocab_size"]
    return ModelConfig(
        src_vocab_size=vocab,
        tgt_vocab_size=vocab,
        d_model=config["d_model"],
        d_ff=config["encoder_ffn_dim"],
        h=config["encoder_attention_heads"],
        N_enc=config["encoder_layers"],
        N_dec=config["decoder_layers"],
        dropout=config.get("dropout", 0.1),
        attention_dropout=config.get("attention_dropout", 0.0),
        ff_dropout=config.get("activation_dropout", 0.0),
        norm="pre" if config.get("normalize_before") else "post",
        tie_embeddings=tied(config),
        max_len=config.get("max_position_embeddings", 1024),
        pad_id=config["pad_token_id"],
        bos_id=config["decoder_start_token_id"],
        eos_id=config["eos_token_id"],
        activation=ACTIVATIONS[config.get("activation_function", "gelu")],  # type: ignore[arg-type]
        scale_embeddings=config.get("scale_embedding", False),
        sinusoid_layout="concat",
        final_norm=bool(config.get("add_final_layer_norm", False)),
    )


def refuse_unsupported(config: dict[str, Any]) -> None:
    """Raise, naming the key, for a config fanyi would compute differently from transformers."""
    if config.get("model_type") != "marian":
        raise ValueError(f"model_type {config.get('model_type')!r}: fanyi converts MarianMT only")
    for key, (value, what) in UNSUPPORTED.items():
        if config.get(key) == value:
            raise ValueError(f"unsupported MarianMT feature: {key}: {value} ({what})")
    activation = config.get("activation_function", "gelu")
    if activation not in ACTIVATIONS:
        raise ValueError(
            f"unsupported MarianMT feature: activation_function {activation!r} "
            f"(fanyi computes {', '.join(ACTIVATIONS)})"
        )
    for encoder, decoder in (
        ("encoder_attention_heads", "decoder_attention_heads"),
        ("encoder_ffn_dim", "decoder_ffn_dim"),
        ("vocab_size", "decoder_vocab_size"),
    ):
        if config.get(decoder, config.get(encoder)) != config.get(encoder):
            raise ValueError(f"unsupported MarianMT feature: {encoder} differs from {decoder}")
    if not isinstance(config.get("eos_token_id"), int):
        raise ValueError(f"unsupported MarianMT feature: eos_token_id {config.get('eos_token_id')}")


def tied(config: dict[str, Any]) -> bool:
    """Whether encoder, decoder and output share one embedding matrix."""
    shared = config.get("share_encoder_decoder_embeddings", True)
    return bool(shared and config.get("tie_word_embeddings", True))


def marian_config(c: ModelConfig) -> dict[str, Any]:
    """A MarianMT ``config.json`` computing what ``c`` computes (transformers' MarianMT is
    post-norm, without final LayerNorms, with sinusoids, over one vocabulary)."""
    unsupported = {
        "norm: pre": c.norm == "pre",
        "final_norm: true": c.has_final_norm,
        "positional: learned": c.positional == "learned",
        "separate vocabularies": c.src_vocab_size != c.tgt_vocab_size,
    }
    for name, present in unsupported.items():
        if present:
            raise ValueError(f"this model has {name}, which transformers' MarianMT cannot compute")
    return {
        "architectures": ["MarianMTModel"],
        "model_type": "marian",
        "vocab_size": c.tgt_vocab_size,
        "decoder_vocab_size": c.tgt_vocab_size,
        "d_model": c.d_model,
        "encoder_layers": c.N_enc,
        "decoder_layers": c.N_dec,
        "encoder_attention_heads": c.h,
        "decoder_attention_heads": c.h,
        "encoder_ffn_dim": c.d_ff,
        "decoder_ffn_dim": c.d_ff,
        "activation_function": c.activation,
        "scale_embedding": c.scale_embeddings,
        "max_position_embeddings": c.max_len,
        "pad_token_id": c.pad_id,
        "eos_token_id": c.eos_id,
        "decoder_start_token_id": c.bos_id,
        "forced_eos_token_id": c.eos_id,
        "share_encoder_decoder_embeddings": c.tie_embeddings,
        "tie_word_embeddings": c.tie_embeddings,
        "dropout": c.dropout,
        "attention_dropout": c.attention_dropout,
        "activation_dropout": c.ff_dropout,
    }


def layer_pairs(c: ModelConfig) -> list[tuple[str, str, str]]:
    """(fanyi module, MarianMT module, kind) for every layer and final norm of ``c``."""
    pairs = []
    for stack, n, layer in (
        ("encoder", c.N_enc, ENCODER_LAYER),
        ("decoder", c.N_dec, DECODER_LAYER),
    ):
        for i in range(n):
            pairs += [
                (f"{stack}.layers.{i}.{ours}", f"model.{stack}.layers.{i}.{theirs}", kind)
                for ours, theirs, kind in layer
            ]
        if c.has_final_norm:
            pairs.append((f"{stack}.norm", f"model.{stack}.layer_norm", "affine"))
    return pairs


class _Weights:
    """MarianMT's tensors by name, remembering which ones were used."""

    def __init__(self, tensors: dict[str, Tensor]) -> None:
        self.tensors = tensors
        self.used: set[str] = set()

    def take(self, *names: str) -> Tensor:
        """The first of ``names`` present."""
        name = next((n for n in names if n in self.tensors), None)
        if name is None:
            raise ValueError(f"the MarianMT weights lack {names[0]}")
        self.used.add(name)
        return self.tensors[name]

    def check_all_used(self) -> None:
        unused = sorted(set(self.tensors) - self.used)
        if unused:
            raise ValueError(f"unsupported MarianMT weights: {', '.join(unused[:5])}")


def fanyi_state(marian: dict[str, Tensor], c: ModelConfig) -> dict[str, Tensor]:
    """fanyi's state dict for MarianMT weights; every MarianMT tensor must be used."""
    weights = _Weights(marian)
    check_positions(weights, c)
    out = {ours: weights.take(*names) for ours, names in EMBEDDINGS.items()}
    out["generator.proj.weight"] = weights.take("lm_head.weight", *EMBEDDINGS[DECODER_EMBEDDING])
    if "final_logits_bias" in marian:
        out["generator.proj.bias"] = weights.take("final_logits_bias").reshape(-1)
    else:
        out["generator.proj.bias"] = torch.zeros(c.tgt_vocab_size)
    for ours, theirs, kind in layer_pairs(c):
        for suffix in ("weight", "bias"):
            if kind == "attention":
                parts = [weights.take(f"{theirs}.{p}_proj.{suffix}") for p in "qkv"]
                out[f"{ours}.in_proj.{suffix}"] = torch.cat(parts)
                ours_theirs = (f"{ours}.out_proj.{suffix}", f"{theirs}.out_proj.{suffix}")
            else:
                ours_theirs = (f"{ours}.{suffix}", f"{theirs}.{suffix}")
            out[ours_theirs[0]] = weights.take(ours_theirs[1])
    weights.check_all_used()
    return out


def check_positions(weights: _Weights, c: ModelConfig) -> None:
    """Stored position embeddings (older checkpoints keep them) must be Marian's sinusoids."""
    table = sinusoid_table(c.max_len, c.d_model, "concat")
    for name in POSITIONS:
        if name in weights.tensors:
            stored = weights.take(name).float()
            if stored.shape != table.shape or not torch.allclose(stored, table, atol=1e-4):
                raise ValueError(f"unsupported MarianMT feature: {name} are not sinusoids")


def marian_state(state: dict[str, Tensor], c: ModelConfig) -> dict[str, Tensor]:
    """MarianMT's state dict for a fanyi state dict in the concat layout (``layout.py``)."""
    out = {
        "model.encoder.embed_tokens.weight": state["src_embed.embeddings.lut.weight"],
        "model.decoder.embed_tokens.weight": state["tgt_embed.embeddings.lut.weight"],
        "lm_head.weight": state["generator.proj.weight"],
        "final_logits_bias": state["generator.proj.bias"][None],
    }
    if c.tie_embeddings:
        out["model.shared.weight"] = state["tgt_embed.embeddings.lut.weight"]
    for ours, theirs, kind in layer_pairs(c):
        for suffix in ("weight", "bias"):
            if kind == "attention":
                parts = state[f"{ours}.in_proj.{suffix}"].chunk(3)
                out.update(
                    {f"{theirs}.{p}_proj.{suffix}": t for p, t in zip("qkv", parts, strict=True)}
                )
                out[f"{theirs}.out_proj.{suffix}"] = state[f"{ours}.out_proj.{suffix}"]
            else:
                out[f"{theirs}.{suffix}"] = state[f"{ours}.{suffix}"]
    return out

"""MarianMT (Hugging Face) ⇄ fanyi: hyper-parameters and weight names, both ways.

MarianMT is the paper's post-norm Transformer with a few other choices, each a ``ModelConfig``
field here: swish in OPUS-MT models (``activation``), all sines before all cosines
(``sinusoid_layout="concat"``), the decoder started from the pad token (``bos_id``), an output
bias (``final_logits_bias``: fanyi's generator bias). Attention projects Q, K and V with three
linear maps where fanyi fuses them into one. A ``config.json`` is checked (types, bounds) before
anything is built from it.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import Tensor

from ..filenames import HF_CONFIG_FILE, HF_GENERATION_CONFIG_FILE
from ..model import ModelConfig
from ..model.embedding import sinusoid_table

ACTIVATIONS = {"relu": "relu", "gelu": "gelu", "swish": "swish", "silu": "swish"}

# A config key with this value asks for something fanyi does not compute: refused by name.
UNSUPPORTED = {
    "normalize_embedding": (True, "a LayerNorm after the embeddings"),
    "static_position_embeddings": (False, "learned position embeddings"),
    "add_bias_logits": (True, "a second output bias"),
    # Older configs may ask for these; transformers' MarianMT ignores them and computes post-norm
    # without final LayerNorms, so weights trained for them would translate differently.
    "normalize_before": (True, "pre-norm layers, which transformers' MarianMT ignores"),
    "add_final_layer_norm": (True, "final LayerNorms, which transformers' MarianMT ignores"),
}
# config.json's sizes: (key, smallest, largest); far above any MarianMT's (OPUS-MT: d_model
# 512-1024, 6-12 layers, 512 positions, 65k pieces), low enough that nothing absurd is built.
SIZES = (
    ("vocab_size", 1, 1 << 21),
    ("d_model", 1, 1 << 14),
    ("encoder_ffn_dim", 1, 1 << 16),
    ("encoder_attention_heads", 1, 1 << 10),
    ("encoder_layers", 0, 256),
    ("decoder_layers", 0, 256),
    ("max_position_embeddings", 1, 1 << 14),
)
MAX_BEAMS = 64
TOKEN_IDS = ("pad_token_id", "decoder_start_token_id", "eos_token_id")
DROPOUTS = ("dropout", "attention_dropout", "activation_dropout")

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
SRC_EMBEDDING, TGT_EMBEDDING = "src_embed.embeddings.lut.weight", "tgt_embed.embeddings.lut.weight"
GENERATOR = "generator.proj.weight"
# MarianMT's names of one matrix: transformers' safetensors keep one of them, its (and
# torch.save's) pytorch_model.bin every alias. Present together, they must be equal.
SHARED = "model.shared.weight"
ENCODER_EMBEDDINGS = ("model.encoder.embed_tokens.weight", SHARED)
DECODER_EMBEDDINGS = ("model.decoder.embed_tokens.weight", SHARED)
OUTPUT = ("lm_head.weight", *DECODER_EMBEDDINGS)
POSITIONS = ("model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight")


def model_config(config: dict[str, Any]) -> ModelConfig:
    """fanyi's ``ModelConfig`` for a MarianMT ``config.json``; what it cannot compute is refused,
    and a size, id or rate out of its range is refused by name."""
    refuse_unsupported(config)
    return config_from(config)


def config_from(config: dict[str, Any]) -> ModelConfig:
    """The post-norm ``ModelConfig`` of a checked MarianMT (or Pegasus) ``config.json``."""
    size = checked_sizes(config)
    rates = {key: rate(config, key, 0.1 if key == "dropout" else 0.0) for key in DROPOUTS}
    return ModelConfig(
        src_vocab_size=size["vocab_size"],
        tgt_vocab_size=size["vocab_size"],
        d_model=size["d_model"],
        d_ff=size["encoder_ffn_dim"],
        h=size["encoder_attention_heads"],
        N_enc=size["encoder_layers"],
        N_dec=size["decoder_layers"],
        dropout=rates["dropout"],
        attention_dropout=rates["attention_dropout"],
        ff_dropout=rates["activation_dropout"],
        tie_embeddings=tied(config),
        max_len=size["max_position_embeddings"],
        pad_id=size["pad_token_id"],
        bos_id=size["decoder_start_token_id"],
        eos_id=size["eos_token_id"],
        activation=ACTIVATIONS[config.get("activation_function", "gelu")],  # type: ignore[arg-type]
        scale_embeddings=bool(config.get("scale_embedding", False)),
        sinusoid_layout="concat",
        final_norm=False,
    )


def checked_sizes(config: dict[str, Any]) -> dict[str, int]:
    """The sizes (``SIZES``) and special ids of ``config``, each an integer in its range."""
    defaults = {"max_position_embeddings": 1024}
    size = {
        key: integer(config.get(key, defaults.get(key)), key, low, high) for key, low, high in SIZES
    }
    for key in TOKEN_IDS:
        size[key] = integer(config.get(key), key, 0, size["vocab_size"] - 1)
    return size


def integer(value: Any, key: str, low: int, high: int, where: str = HF_CONFIG_FILE) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where}: {key} must be an integer from {low} to {high}, not {value!r}")
    return value


def rate(config: dict[str, Any], key: str, default: float) -> float:
    """A dropout rate of ``config``: a number in [0, 1)."""
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
        raise ValueError(f"{HF_CONFIG_FILE}: {key} must be a number in [0, 1), not {value!r}")
    return float(value)


def refuse_unsupported(config: dict[str, Any]) -> None:
    """Raise, naming the key, for a config fanyi would compute differently from transformers."""
    if config.get("model_type") != "marian":
        raise ValueError(
            f"model_type {config.get('model_type')!r}: fanyi converts MarianMT and Pegasus only"
        )
    refuse_features(config, UNSUPPORTED, "MarianMT")


def refuse_features(
    config: dict[str, Any], unsupported: dict[str, tuple[bool, str]], name: str
) -> None:
    """Raise, naming the key, for a feature of ``config`` (architecture ``name``) that fanyi
    does not compute: a key of ``unsupported`` with its value, an activation, an encoder and a
    decoder of different widths."""
    for key, (value, what) in unsupported.items():
        if config.get(key) == value:
            raise ValueError(f"unsupported {name} feature: {key}: {value} ({what})")
    activation = config.get("activation_function", "gelu")
    if not isinstance(activation, str) or activation not in ACTIVATIONS:
        raise ValueError(
            f"unsupported {name} feature: activation_function {activation!r} "
            f"(fanyi computes {', '.join(ACTIVATIONS)})"
        )
    for encoder, decoder in (
        ("encoder_attention_heads", "decoder_attention_heads"),
        ("encoder_ffn_dim", "decoder_ffn_dim"),
        ("vocab_size", "decoder_vocab_size"),
    ):
        if config.get(decoder, config.get(encoder)) != config.get(encoder):
            raise ValueError(f"unsupported {name} feature: {encoder} differs from {decoder}")


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


def decode_defaults(generation: dict[str, Any]) -> dict[str, Any]:
    """fanyi's decoding defaults (``config.yaml``'s ``decode``) from a MarianMT generation config:
    its beam; fanyi's own length limit and GNMT length penalty otherwise (docs/interop.md)."""
    beams = generation.get("num_beams")
    if beams is None:
        return {}
    return {"beam": integer(beams, "num_beams", 1, MAX_BEAMS, HF_GENERATION_CONFIG_FILE)}


def generation_config(c: ModelConfig, beam: int) -> dict[str, Any]:
    """The ``generation_config.json`` of an OPUS-MT model, for a model ``c`` that fanyi decodes
    with ``beam``: ``generate`` then searches with that beam, up to 512 tokens (or the model's
    positions), never generating padding."""
    return {
        "max_length": min(512, c.max_len),
        "num_beams": beam,
        "bad_words_ids": [[c.pad_id]],
        "decoder_start_token_id": c.bos_id,
        "pad_token_id": c.pad_id,
        "eos_token_id": c.eos_id,
        "forced_eos_token_id": c.eos_id,
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

    def take_equal(self, *names: str) -> Tensor:
        """The first of ``names`` present; every other one present must be equal to it."""
        present = [n for n in names if n in self.tensors]
        first = self.take(*names)
        for name in present[1:]:
            other = self.tensors[name]
            if other.shape != first.shape or not (other.is_meta or torch.equal(other, first)):
                raise ValueError(
                    f"the MarianMT weights {present[0]} and {name} differ, though the config "
                    "shares them"
                )
        self.used.update(present)
        return first

    def check_all_used(self) -> None:
        unused = sorted(set(self.tensors) - self.used)
        if unused:
            raise ValueError(f"unsupported MarianMT weights: {', '.join(unused[:5])}")


def fanyi_state(marian: dict[str, Tensor], c: ModelConfig) -> dict[str, Tensor]:
    """fanyi's state dict for MarianMT weights; every MarianMT tensor must be used. Meta tensors
    (shapes only: a checkpoint's header) map to meta tensors, checking names and shapes only."""
    weights = _Weights(marian)
    check_positions(weights, c)
    out = embeddings(weights, c)
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


def embeddings(weights: _Weights, c: ModelConfig) -> dict[str, Tensor]:
    """fanyi's embeddings and output projection (one matrix when ``c`` ties them)."""
    if c.tie_embeddings:
        one = weights.take_equal(*dict.fromkeys(ENCODER_EMBEDDINGS + OUTPUT))
        return {SRC_EMBEDDING: one, TGT_EMBEDDING: one, GENERATOR: one}
    return {
        SRC_EMBEDDING: weights.take_equal(*ENCODER_EMBEDDINGS),
        TGT_EMBEDDING: weights.take_equal(*DECODER_EMBEDDINGS),
        GENERATOR: weights.take(*OUTPUT),
    }


def check_positions(weights: _Weights, c: ModelConfig) -> None:
    """Stored position embeddings (older checkpoints keep them) must be Marian's sinusoids."""
    for name in POSITIONS:
        if name in weights.tensors:
            stored = weights.take(name)
            if stored.shape != (c.max_len, c.d_model) or not (
                stored.is_meta
                or torch.allclose(
                    stored.float(), sinusoid_table(*stored.shape, "concat"), atol=1e-4
                )
            ):
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

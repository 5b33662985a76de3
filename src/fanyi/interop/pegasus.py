"""Pegasus (Hugging Face) ⇄ fanyi: a pre-norm model's hyper-parameters and weights, both ways.

transformers' Pegasus is MarianMT's pre-norm twin, and computes a fanyi pre-norm model exactly:
each sub-layer is x + Sublayer(LayerNorm(x)), each stack ends in a LayerNorm (fanyi's
``final_norm``, by default on for pre-norm), the sinusoids are the paper's frequencies laid out
sines-then-cosines from position 0 (``layout.py`` permutes an interleaved model), the decoder's
positions during ``generate`` count on from its cache's length as fanyi's do, LayerNorms use
ε = 1e-5 as torch's default, and dropout (placed as fanyi places it) is off in evaluation. The
layer and weight names are MarianMT's (``marian.py``), final LayerNorms included; so are the
other choices (activation, ``scale_embedding``, the start token, ``final_logits_bias``).

What Pegasus cannot compute, fanyi refuses by name: a pre-norm model without final LayerNorms,
learned positions, separate vocabularies (CTranslate2 takes the first two).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from torch import Tensor

from ..model import ModelConfig
from . import marian

ARCHITECTURE = "PegasusForConditionalGeneration"

# Keys of older Pegasus configs that transformers ignores: Pegasus is always pre-norm with final
# LayerNorms and sinusoids, so weights trained for these values would translate differently.
UNSUPPORTED = {
    "normalize_before": (False, "post-norm layers, which transformers' Pegasus ignores"),
    "add_final_layer_norm": (False, "no final LayerNorms, which transformers' Pegasus ignores"),
    "static_position_embeddings": (False, "learned position embeddings"),
    "normalize_embedding": (True, "a LayerNorm after the embeddings"),
    "add_bias_logits": (True, "a second output bias"),
}


def pegasus_config(c: ModelConfig) -> dict[str, Any]:
    """A Pegasus ``config.json`` computing what pre-norm model ``c`` computes; what Pegasus
    cannot compute is refused by name, with the export that can."""
    unsupported = {
        "norm: post (export it as MarianMT)": c.norm == "post",
        "no final LayerNorms (final_norm: false)": not c.has_final_norm,
        "positional: learned": c.positional == "learned",
        "separate vocabularies": c.src_vocab_size != c.tgt_vocab_size,
    }
    for name, present in unsupported.items():
        if present:
            raise ValueError(
                f"this model has {name}, which transformers' Pegasus cannot compute; "
                "fanyi export --format ctranslate2 exports it"
            )
    config = marian.marian_config(dataclasses.replace(c, norm="post", final_norm=False))
    for key in ("decoder_vocab_size", "share_encoder_decoder_embeddings"):
        del config[key]  # MarianMT's own keys
    return config | {"architectures": [ARCHITECTURE], "model_type": "pegasus"}


def pegasus_state(state: dict[str, Tensor], c: ModelConfig) -> dict[str, Tensor]:
    """Pegasus's state dict for a fanyi state dict in the concat layout (``layout.py``)."""
    out = marian.marian_state(state, c)
    # Pegasus always has model.shared; untied, it computes nothing (each stack has its own).
    out.setdefault(marian.SHARED, out["model.encoder.embed_tokens.weight"])
    return out


def model_config(config: dict[str, Any]) -> ModelConfig:
    """fanyi's ``ModelConfig`` for a Pegasus ``config.json``; what it cannot compute is refused,
    and a size, id or rate out of its range is refused by name."""
    if config.get("model_type") != "pegasus":
        raise ValueError(f"model_type {config.get('model_type')!r} is not pegasus")
    marian.refuse_features(config, UNSUPPORTED, "Pegasus")
    return dataclasses.replace(marian.config_from(config), norm="pre", final_norm=True)


def fanyi_state(weights: dict[str, Tensor], c: ModelConfig) -> dict[str, Tensor]:
    """fanyi's state dict for Pegasus weights; every Pegasus tensor must be used (an untied
    model's ``model.shared``, which Pegasus never reads, is left out)."""
    if not c.tie_embeddings:
        weights = {k: t for k, t in weights.items() if k != marian.SHARED}
    return marian.fanyi_state(weights, c)

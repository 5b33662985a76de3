"""A fanyi model directory as CTranslate2's files (``export_ct2.py`` adds the model card).

The model is described directly as a ``ctranslate2.specs.TransformerSpec``, weight by weight:
fanyi's fused Q/K/V projection is CTranslate2's, its positional table is handed over as it is
(either layout), its decoder starts from its own BOS token, and cross-attention is returned as
fanyi keeps it (last layer, mean over heads). The vocabularies are fanyi's pieces in id order,
so a language tag ``<2en>`` is an ordinary source token. fanyi's ``config.yaml`` and
vocabulary files are copied beside CTranslate2's files: the engine tokenises, normalises and
detokenises exactly as fanyi's Translator does.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any, cast

from torch import nn

from ..data.vocab import Vocab
from ..filenames import CONFIG_FILE
from ..model import MultiHeadAttention, Transformer
from ..model.embedding import InputEmbedding, LearnedPositionalEncoding, sinusoid_table
from ..model.feed_forward import PositionwiseFeedForward
from ..model.layers import DecoderLayer, EncoderLayer, SublayerConnection
from ..model_dir import load_model
from ..sections import Checkpoint
from ..text.recase import table_beside
from .ct2_dtypes import DTYPES

QUANTIZATIONS = tuple(DTYPES.values())


def write_ctranslate2(
    model_dir: str | Path, out: Path, quantization: str = "float32"
) -> tuple[Checkpoint, int]:
    """Write the CTranslate2 files of ``model_dir`` (weights in ``quantization``) and fanyi's
    text files into the directory ``out``; the model's checkpoint and number of parameters."""
    if quantization not in QUANTIZATIONS:
        raise ValueError(f"quantization must be one of {', '.join(QUANTIZATIONS)}")
    model, checkpoint = load_model(model_dir)
    spec = transformer_spec(model.requires_grad_(False))
    source, target = checkpoint.vocabularies()
    spec.register_source_vocabulary(tokens(source, model.config.src_vocab_size))
    spec.register_target_vocabulary(tokens(target, model.config.tgt_vocab_size))
    spec.config.unk_token, spec.config.eos_token = "<unk>", target.id_to_piece(model.config.eos_id)
    spec.config.bos_token = spec.config.decoder_start_token = target.id_to_piece(
        model.config.bos_id
    )
    spec.config.layer_norm_epsilon = 1e-5  # torch's LayerNorm default
    spec.validate()
    spec.optimize(quantization=quantization)
    out.mkdir(parents=True, exist_ok=True)
    spec.save(str(out))
    copy_fanyi_files(checkpoint, out)
    return checkpoint, sum(p.numel() for p in model.parameters())


def transformer_spec(model: Transformer) -> Any:
    """A ``TransformerSpec`` holding ``model``'s weights."""
    from ctranslate2.specs import TransformerSpec, common_spec

    c = model.config
    if c.has_final_norm and c.norm == "post":
        raise ValueError("CTranslate2 has no final LayerNorm for a post-norm model (final_norm)")
    activations = {"relu": "RELU", "gelu": "GELU", "swish": "SWISH"}
    spec = TransformerSpec.from_config(
        (c.N_enc, c.N_dec),
        c.h,
        pre_norm=c.norm == "pre",
        no_final_norm=not c.has_final_norm,
        activation=common_spec.Activation[activations[c.activation]],
        alignment_heads=0,  # return the mean over heads, as fanyi does
    )
    for stack, embed in ((spec.encoder, model.src_embed), (spec.decoder, model.tgt_embed)):
        set_input(stack, embed, model)
    for layer, ours in zip(
        spec.encoder.layer, cast(list[EncoderLayer], model.encoder.layers), strict=True
    ):
        set_attention(layer.self_attention, ours.self_attn, norm_of(ours, 0))
        set_feed_forward(layer.ffn, ours.feed_forward, norm_of(ours, 1))
    for layer, theirs in zip(
        spec.decoder.layer, cast(list[DecoderLayer], model.decoder.layers), strict=True
    ):
        set_attention(layer.self_attention, theirs.self_attn, norm_of(theirs, 0))
        set_attention(layer.attention, theirs.cross_attn, norm_of(theirs, 1), cross=True)
        set_feed_forward(layer.ffn, theirs.feed_forward, norm_of(theirs, 2))
    set_linear(spec.decoder.projection, model.generator.proj)
    if c.has_final_norm:
        set_norm(spec.encoder.layer_norm, model.encoder.norm)
        set_norm(spec.decoder.layer_norm, model.decoder.norm)
    return spec


def norm_of(layer: EncoderLayer | DecoderLayer, i: int) -> nn.Module:
    """The LayerNorm of sub-layer ``i`` of ``layer``."""
    return cast(SublayerConnection, layer.sublayers[i]).norm


def set_input(stack: Any, embed: InputEmbedding, model: Transformer) -> None:
    """Token embeddings, their scale and the positional table of one stack."""
    c = model.config
    weight = embed.embeddings.lut.weight
    (
        stack.embeddings[0] if isinstance(stack.embeddings, list) else stack.embeddings
    ).weight = weight
    stack.scale_embeddings = math.sqrt(c.d_model) if c.scale_embeddings else 1.0
    if c.positional == "learned":
        table = cast(LearnedPositionalEncoding, embed.positional).table.weight
    else:
        table = sinusoid_table(c.max_len, c.d_model, c.sinusoid_layout)
    stack.position_encodings.encodings = table


def set_attention(
    spec: Any, attention: MultiHeadAttention, norm: nn.Module, cross: bool = False
) -> None:
    """Q/K/V as one map (self-attention) or Q and K/V (cross-attention), output map, its norm."""
    weight, bias, d = attention.in_proj.weight, attention.in_proj.bias, attention.d_model
    parts = [(weight[:d], bias[:d]), (weight[d:], bias[d:])] if cross else [(weight, bias)]
    for linear, (w, b) in zip(spec.linear, parts, strict=False):
        linear.weight, linear.bias = w, b
    set_linear(spec.linear[-1], attention.out_proj)
    set_norm(spec.layer_norm, norm)


def set_feed_forward(spec: Any, feed_forward: PositionwiseFeedForward, norm: nn.Module) -> None:
    set_linear(spec.linear_0, feed_forward.w_1)
    set_linear(spec.linear_1, feed_forward.w_2)
    set_norm(spec.layer_norm, norm)


def set_linear(spec: Any, linear: nn.Module) -> None:
    spec.weight, spec.bias = linear.weight, linear.bias


def set_norm(spec: Any, norm: nn.Module) -> None:
    spec.gamma, spec.beta = norm.weight, norm.bias


def tokens(vocab: Vocab, size: int) -> list[str]:
    """The vocabulary's pieces in id order (CTranslate2 maps tokens to ids by position)."""
    pieces = [vocab.id_to_piece(i) for i in range(size)]
    if len(set(pieces)) != size:
        raise ValueError(f"{vocab.path}: pieces are not unique, CTranslate2 cannot tell ids apart")
    return pieces


def copy_fanyi_files(checkpoint: Checkpoint, out: Path) -> None:
    """fanyi's config.yaml and vocabulary files (and truecase.txt), for the engine's text
    handling."""
    vocab = [checkpoint.path / name for name in checkpoint.vocab.files()]
    for path in [checkpoint.path / CONFIG_FILE, *vocab, *table_beside(vocab)]:
        shutil.copyfile(path, out / path.name)

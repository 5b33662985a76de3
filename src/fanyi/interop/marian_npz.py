"""Marian's own checkpoints, as OPUS-MT's releases ship them, read as a MarianMT checkpoint.

A release directory holds one ``*.npz`` (numpy arrays, Marian's options as YAML text under
``special:model.yml``), one ``*.vocab.yml`` (piece: id), ``source.spm``, ``target.spm`` and
``decoder.yml`` (its ``beam-size``). The arrays are read with ``numpy.load(allow_pickle=False)``:
nothing is unpickled. Names map as transformers' own converter maps them
(``convert_marian_to_pytorch.py``): every matrix transposed (Marian multiplies row vectors), every
bias and LayerNorm a row; the vocabulary gains ``<pad>`` last, with a zero embedding and bias
(the decoder's start). Marian options that compute something MarianMT does not are refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from torch import Tensor

from ..filenames import MARIAN_DECODER_FILE
from ..inputs import VOCABULARY_BYTES, check_shape, read_text

CONFIG_KEY = "special:model.yml"
PAD = "<pad>"
LAYER = {  # within a layer: Marian's name → MarianMT's
    **{f"{ours}_W{p}": f"{theirs}.{p}_proj.weight" for ours, theirs in (("self", "self_attn"), ("context", "encoder_attn")) for p in "qkv"},
    **{f"{ours}_b{p}": f"{theirs}.{p}_proj.bias" for ours, theirs in (("self", "self_attn"), ("context", "encoder_attn")) for p in "qkv"},
    "self_Wo": "self_attn.out_proj.weight",
    "self_bo": "self_attn.out_proj.bias",
    "self_Wo_ln_scale": "self_attn_layer_norm.weight",
    "self_Wo_ln_bias": "self_attn_layer_norm.bias",
    "context_Wo": "encoder_attn.out_proj.weight",
    "context_bo": "encoder_attn.out_proj.bias",
    "context_Wo_ln_scale": "encoder_attn_layer_norm.weight",
    "context_Wo_ln_bias": "encoder_attn_layer_norm.bias",
    "ffn_W1": "fc1.weight",
    "ffn_b1": "fc1.bias",
    "ffn_W2": "fc2.weight",
    "ffn_b2": "fc2.bias",
    "ffn_ffn_ln_scale": "final_layer_norm.weight",
    "ffn_ffn_ln_bias": "final_layer_norm.bias",
}  # fmt: skip
# Marian's options with the one value MarianMT computes (transformers' converter assumes them).
ASSUMED = {
    "type": "transformer",
    "transformer-preprocess": "",
    "transformer-postprocess": "dan",
    "transformer-postprocess-emb": "d",
    "transformer-ffn-depth": 2,
    "transformer-train-position-embeddings": False,
    "transformer-no-projection": False,
    "right-left": False,
    "tied-embeddings": True,
}
POSITIONS = 512  # Marian computes its sinusoids for any length; OPUS-MT trains on ≤ 500 tokens


@dataclass
class Release:
    """A Marian release read as MarianMT's config.json, vocab.json, weights and beam."""

    config: dict[str, Any]
    table: dict[str, int]
    weights: dict[str, Tensor]
    generation: dict[str, Any]


def release_npz(directory: Path) -> Path | None:
    """The one ``*.npz`` of a Marian release directory (None: not one)."""
    found = sorted(directory.glob("*.npz"))
    if len(found) > 1:
        raise ValueError(
            f"{directory} holds several Marian models: {', '.join(p.name for p in found)}"
        )
    return found[0] if found else None


def read_release(directory: Path, npz: Path) -> Release:
    """The Marian release in ``directory`` (model ``npz``) as MarianMT's files would hold it."""
    arrays = read_arrays(npz)
    options = marian_options(arrays.pop(CONFIG_KEY, None), npz)
    table = vocabulary(directory)
    config = marian_config(options, table)
    weights = marian_weights(arrays, options)
    decoder = directory / MARIAN_DECODER_FILE
    beam = read_yaml(decoder).get("beam-size") if decoder.is_file() else None
    return Release(config, table, weights, {} if beam is None else {"num_beams": cast(beam)})


def read_arrays(npz: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(npz, allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except (ValueError, OSError, EOFError) as error:  # object arrays, truncated, not a zip
        raise ValueError(f"{npz}: not a Marian model of plain arrays ({error})") from None


def read_yaml(path: Path) -> dict[str, Any]:
    """A Marian YAML file, every scalar a string (as Marian writes them), as a mapping."""
    text = read_text(path, VOCABULARY_BYTES)  # a vocab.yml: one line per piece
    try:
        found = yaml.load(text, Loader=yaml.BaseLoader)
    except (yaml.YAMLError, RecursionError) as error:
        raise ValueError(f"{path}: not valid YAML ({error})".replace("\n", " ")[:300]) from None
    check_shape(found, path)
    if not isinstance(found, dict):
        raise ValueError(f"{path}: expected a mapping")
    return found


def cast(value: Any) -> Any:
    """A Marian option's string as the bool or int it spells (else as it is)."""
    if isinstance(value, list):
        return [cast(v) for v in value]
    if value in ("true", "false"):
        return value == "true"
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def marian_options(text: np.ndarray | None, npz: Path) -> dict[str, Any]:
    """Marian's options stored in the model (``special:model.yml``), checked against ASSUMED."""
    if text is None:
        raise ValueError(f"{npz}: no {CONFIG_KEY}: not a Marian model")
    try:
        found = yaml.load(text.tobytes().rstrip(b"\0").decode("utf-8"), Loader=yaml.BaseLoader)
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ValueError(f"{npz}: {CONFIG_KEY} is not valid YAML ({error})") from None
    if not isinstance(found, dict):
        raise ValueError(f"{npz}: {CONFIG_KEY} is not a mapping")
    options = {key: cast(value) for key, value in found.items()}
    if options.get("tied-embeddings-all"):
        options["tied-embeddings-src"] = options["tied-embeddings"] = True
    for key, value in ASSUMED.items():
        if options.get(key, value) != value:
            raise ValueError(
                f"unsupported Marian option: {key}: {options[key]!r} (MarianMT: {value!r})"
            )
    return options


def vocabulary(directory: Path) -> dict[str, int]:
    """The release's one ``*.vocab.yml`` with ``<pad>`` added last (what vocab.json holds)."""
    found = sorted(directory.glob("*.vocab.yml"))
    if len(found) != 1:
        raise ValueError(
            f"{directory}: expected one *.vocab.yml (separate vocabularies are not supported), "
            f"found {len(found)}"
        )
    try:
        table = {str(piece): int(i) for piece, i in read_yaml(found[0]).items()}
    except ValueError:
        raise ValueError(f"{found[0]}: ids must be integers") from None
    return {**table, PAD: max(table.values(), default=-1) + 1} if PAD not in table else table


def marian_config(options: dict[str, Any], table: dict[str, int]) -> dict[str, Any]:
    """MarianMT's ``config.json`` for a model of Marian ``options`` (Marian's defaults where an
    option is absent) over vocabulary ``table``."""
    size, pad = len(set(table.values())), table[PAD]
    vocabs = options.get("dim-vocabs", [size - 1, size - 1])
    if not isinstance(vocabs, list) or any(v != size - 1 for v in vocabs):
        raise ValueError(f"dim-vocabs {vocabs}: the vocabulary has {size - 1} pieces")
    heads, ffn = options.get("transformer-heads", 8), options.get("transformer-dim-ffn", 2048)
    return {
        "model_type": "marian",
        "vocab_size": size,
        "d_model": options.get("dim-emb", 512),
        "encoder_layers": options.get("enc-depth", 6),
        "decoder_layers": options.get("dec-depth", 6),
        "encoder_attention_heads": heads,
        "decoder_attention_heads": heads,
        "encoder_ffn_dim": ffn,
        "decoder_ffn_dim": ffn,
        "activation_function": options.get("transformer-ffn-activation", "swish"),
        "max_position_embeddings": POSITIONS,
        "scale_embedding": True,
        "pad_token_id": pad,
        "decoder_start_token_id": pad,
        "eos_token_id": table.get("</s>"),
        "share_encoder_decoder_embeddings": bool(options.get("tied-embeddings-src")),
        "tie_word_embeddings": True,
    }


def marian_weights(arrays: dict[str, np.ndarray], options: dict[str, Any]) -> dict[str, Tensor]:
    """MarianMT's tensors for Marian's ``arrays``; a name not mapped keeps its Marian name (and
    is refused by name where fanyi maps the weights)."""
    arrays = dict(arrays)
    names = (
        {"Wemb": "model.shared.weight"}
        if options.get("tied-embeddings-src")
        else {"encoder_Wemb": "model.encoder.embed_tokens.weight",
              "decoder_Wemb": "model.decoder.embed_tokens.weight"}
    )  # fmt: skip
    out = {theirs: padded(take(arrays, ours), rows=True) for ours, theirs in names.items()}
    out["final_logits_bias"] = padded(take(arrays, "decoder_ff_logit_out_b"), rows=False)
    for name, array in arrays.items():
        stack, _, rest = name.partition("_l")
        number, _, key = rest.partition("_")
        if stack in ("encoder", "decoder") and number.isdigit() and key in LAYER:
            name = f"model.{stack}.layers.{int(number) - 1}.{LAYER[key]}"
            array = array[0] if array.ndim == 2 and array.shape[0] == 1 else array.T
        out[name] = torch.from_numpy(np.ascontiguousarray(array))
    return out


def take(arrays: dict[str, np.ndarray], name: str) -> np.ndarray:
    if name not in arrays:
        raise ValueError(f"the Marian model lacks {name}")
    return arrays.pop(name)


def padded(array: np.ndarray, rows: bool) -> Tensor:
    """``array`` with a zero row (an embedding) or column (the output bias) for ``<pad>``."""
    zeros = np.zeros((1, array.shape[1]) if rows else (array.shape[0], 1), dtype=array.dtype)
    return torch.from_numpy(np.concatenate([array, zeros], axis=0 if rows else 1))

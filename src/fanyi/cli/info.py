"""``fanyi info [-m MODEL]``: what a model is, from its ``config.yaml`` and its weights' header
alone (no weights read, no torch): its languages, architecture, size, dtypes, decoding defaults,
test scores with their sacreBLEU signatures, the corpora it learnt from with their licences, and
the terms its weights come under. The same facts as the model card of ``fanyi export``."""

from __future__ import annotations

import argparse
import json
import math
import struct
from pathlib import Path
from typing import Any

from ..filenames import CONFIG_FILE, MODEL_FILE
from ..sections import Checkpoint, read_config, read_yaml
from ..translate.model_names import resolve_model_dir

HEADER_BYTES = 100 << 20  # a safetensors header larger than this is no fanyi model's
SCALE_SUFFIX = "_scale"  # int8_storage.SCALE_SUFFIX: an int8 matrix's scales, not parameters


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "info",
        help="a model's languages, architecture, size, dtypes, scores, data and licence",
        description=__doc__,
    )
    parser.add_argument(
        "-m",
        "--model",
        metavar="DIR",
        help="model directory or bundled name (default: zh-en-general)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = resolve_model_dir(args.model)
    members = _members(path)
    checkpoint = read_config(members[0])
    print("\n".join(describe(checkpoint, path, members)))
    return 0


def describe(checkpoint: Checkpoint, path: Path, members: list[Path]) -> list[str]:
    """The lines ``fanyi info`` prints for the model (or ensemble) at ``path``."""
    from ..interop.model_card import data_section, scores_section

    data, c = checkpoint.data, checkpoint.model
    both = f"{data.src_lang}⇄{data.tgt_lang}, both ways" if data.bidirectional else ""
    tensors = [_tensors(member / MODEL_FILE) for member in members]
    parameters = sum(_parameters(t) for t in tensors)
    size = sum((member / MODEL_FILE).stat().st_size for member in members)
    kind = f"an ensemble of {len(members)} models, each " if len(members) > 1 else ""
    lines = [
        f"{path.name}: {path}",
        f"languages: {both or f'{data.src_lang}→{data.tgt_lang}'}",
        f"architecture: {kind}a Transformer, d_model {c.d_model}, d_ff {c.d_ff}, h {c.h}, "
        f"{c.N_enc} encoder and {c.N_dec} decoder layers, {c.norm}-norm, {c.positional} "
        f"positions, vocabulary {c.src_vocab_size:,}"
        + (" (tied embeddings)" if c.tie_embeddings else ""),
        f"size: {parameters / 1e6:.1f}M parameters, {size / 1e6:.0f} MB on disk"
        f" ({_storage(tensors[0])})",
        f"dtypes: {', '.join(_decode(path).get('auto_dtypes') or ['fp32', 'bf16', 'int8'])} "
        "(--dtype auto picks the fastest of them on this host)",
        f"decoding: {_decoding(_decode(path))}",
        "",
        "## Scores",
        "",
        scores_section(checkpoint),
        "",
        "## Data and licence",
        "",
        data_section(checkpoint),
    ]
    return lines


def _members(path: Path) -> list[Path]:
    """The model directories of ``path``: its members for an ensemble, else itself."""
    if "ensemble" not in read_yaml(path / CONFIG_FILE):
        return [path]
    from ..ensemble_dir import ensemble_members  # an ensemble's own checks (imports torch)

    return ensemble_members(path) or [path]


def _decode(path: Path) -> dict[str, Any]:
    """The ``decode`` section of the model's (or ensemble's) ``config.yaml``."""
    section = read_yaml(path / CONFIG_FILE).get("decode")
    return section if isinstance(section, dict) else {}


def _decoding(decode: dict[str, Any]) -> str:
    """The decoding defaults a model's config sets over DecodeConfig's."""
    chosen = {k: v for k, v in decode.items() if k != "auto_dtypes" and v not in ({}, [], None)}
    return ", ".join(f"{k} {v}" for k, v in chosen.items()) or "DecodeConfig's defaults"


def _tensors(weights: Path) -> dict[str, Any]:
    """The safetensors header of ``weights``: each tensor's dtype and shape, and the metadata."""
    if not weights.is_file():  # an export: another's weights beside fanyi's configs
        return {}
    with weights.open("rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        if length > HEADER_BYTES:
            raise ValueError(f"{weights}: not a safetensors file")
        header: dict[str, Any] = json.loads(f.read(length))
    return header


def _parameters(header: dict[str, Any]) -> int:
    """The parameters a header's tensors hold (tied ones once; int8 scales not counted)."""
    tensors = [v for k, v in header.items() if k != "__metadata__" and not k.endswith(SCALE_SUFFIX)]
    return sum(math.prod(t["shape"]) for t in tensors)


def _storage(header: dict[str, Any]) -> str:
    """How the weights are stored: int8 rows with a scale each, or their float dtype."""
    metadata = header.get("__metadata__") or {}
    if metadata.get("quantized"):
        return "matrices as int8 rows with a scale each, the rest fp16; read back as floats"
    kinds = sorted({t["dtype"] for k, t in header.items() if k != "__metadata__"})
    return f"stored as {', '.join(kinds) or 'another engine'}"

"""CTranslate2 models written by CTranslate2's own converter, read as fanyi checkpoints, so that
``--engine ctranslate2`` translates with them as with one fanyi exported::

    ct2-transformers-converter --model opus-mt-xx-yy --output_dir opus-mt-xx-yy-ct2 \\
        --copy_files source.spm target.spm vocab.json tokenizer_config.json

MarianMT's SentencePiece models and ``vocab.json`` (the piece → id table, which CTranslate2's
vocabulary lists without ``<pad>``) tokenise as ``fanyi convert``'s models do; the languages come
from ``tokenizer_config.json`` or an ``opus-mt-xx-yy`` name; the sizes from ``model.bin``'s
header, which :func:`ct2_variables` reads without the weights (and refuses a truncated file by).
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

from ..data import DataConfig
from ..filenames import (
    CT2_CONFIG_FILE,
    CT2_MODEL_FILE,
    HF_TOKENIZER_CONFIG_FILE,
    MARIAN_VOCAB_FILES,
    SOURCE_SPM,
    TARGET_SPM,
    VOCAB_JSON,
)
from ..model import ModelConfig
from ..sections import Checkpoint, RunInfo, VocabFiles
from .convert import languages, read_json

CONVERTER = (
    "ct2-transformers-converter --model MODEL --output_dir DIR --copy_files "
    f"{' '.join(MARIAN_VOCAB_FILES)} {HF_TOKENIZER_CONFIG_FILE}"
)
MAX_VARIABLES = 1 << 20
Variables = dict[str, tuple[int, ...] | int]  # model.bin's: shapes, and the values of scalars
DEFAULT_POSITIONS = 1024  # where model.bin holds no table: CTranslate2 makes its own


def ct2_variables(path: Path) -> Variables:
    """The shapes of the variables in ``model.bin`` of directory ``path`` (scalars: their
    integer values), read from its header, skipping the weights (binary version 4 onwards)."""
    file = path / CT2_MODEL_FILE
    size = file.stat().st_size
    variables: Variables = {}
    try:
        with open(file, "rb") as f:
            (version,) = struct.unpack("<I", f.read(4))
            if version < 4:  # older layouts: CTranslate2 itself reads them
                return {}
            _string(f)
            (_, count) = struct.unpack("<II", f.read(8))
            if count > MAX_VARIABLES:
                raise ValueError
            for _ in range(count):
                name, (rank,) = _string(f), struct.unpack("<B", f.read(1))
                shape = struct.unpack(f"<{rank}I", f.read(4 * rank))
                (kind, length) = struct.unpack("<BI", f.read(5))
                if rank == 0 and kind in (1, 2, 3):  # int8, int16, int32: a setting's value
                    variables[name] = int.from_bytes(f.read(length), "little", signed=True)
                else:
                    variables[name] = shape
                    f.seek(length, 1)
                if f.tell() > size:
                    raise ValueError
    except (struct.error, UnicodeDecodeError, ValueError, TypeError):
        raise ValueError(f"{file}: truncated, or not a CTranslate2 model") from None
    return variables


def _string(f: BinaryIO) -> str:
    (length,) = struct.unpack("<H", f.read(2))
    return f.read(length)[:-1].decode("utf-8")


def native_checkpoint(path: Path, variables: Variables) -> Checkpoint:
    """What fanyi needs to translate with the MarianMT model CTranslate2 converted into ``path``
    (no ``config.yaml``): its vocabulary files, languages, special ids and sizes."""
    missing = [name for name in MARIAN_VOCAB_FILES if not (path / name).is_file()]
    if missing:
        raise ValueError(
            f"{path} is a CTranslate2 model without fanyi's config.yaml or MarianMT's "
            f"{', '.join(missing)}; convert it so: {CONVERTER}"
        )
    config, table = read_json(path / CT2_CONFIG_FILE), read_json(path / VOCAB_JSON)
    eos = table.get(str(config.get("eos_token", "</s>")))
    if eos is None or "<pad>" not in table:
        raise ValueError(f"{path / VOCAB_JSON}: no <pad> or end token: not MarianMT's table")
    vocab = VocabFiles(SOURCE_SPM, TARGET_SPM, joint=True, ids=VOCAB_JSON)
    model = model_config(variables, len(table), table["<pad>"], eos)
    info = RunInfo(converted_by="CTranslate2")
    return Checkpoint(path, model, text_settings(path), vocab, info)


def text_settings(path: Path) -> DataConfig:
    """The languages of the model in ``path`` (from its tokenizer config or an opus-mt-xx-yy
    name), its text read as it is (MarianMT does not normalise)."""
    tokenizer = read_json(path / HF_TOKENIZER_CONFIG_FILE, required=False)
    try:
        src, tgt = languages(path.name, tokenizer, None, None)
    except ValueError:
        raise ValueError(
            f"cannot tell the languages of {path}: copy the model's {HF_TOKENIZER_CONFIG_FILE} into "
            "it, or name it opus-mt-SRC-TGT"
        ) from None
    columns = {src: 0, tgt: 1}
    return DataConfig(train="", src_lang=src, tgt_lang=tgt, columns=columns, nfkc=False, t2s=False)


def model_config(variables: Variables, vocab: int, pad: int, eos: int) -> ModelConfig:
    """The sizes ``model.bin`` holds (the vocabulary with ``<pad>``, which CTranslate2 drops from
    a MarianMT model) and MarianMT's special ids (its decoder starts from ``<pad>``)."""

    def shape(name: str) -> tuple[int, ...]:
        found = variables.get(name)
        return found if isinstance(found, tuple) else ()

    d_model = (shape("decoder/embeddings/weight") or (0, 512))[1]
    layers = {
        stack: len({name.split("/")[1] for name in variables if name.startswith(f"{stack}/layer_")})
        for stack in ("encoder", "decoder")
    }
    heads = variables.get("encoder/num_heads")
    return ModelConfig(
        src_vocab_size=vocab,
        tgt_vocab_size=vocab,
        d_model=d_model,
        d_ff=(shape("encoder/layer_0/ffn/linear_0/weight") or (4 * d_model,))[0],
        h=heads if isinstance(heads, int) and heads > 0 and d_model % heads == 0 else 1,
        N_enc=layers["encoder"],
        N_dec=layers["decoder"],
        max_len=(shape("decoder/position_encodings/encodings") or (DEFAULT_POSITIONS,))[0],
        pad_id=pad,
        bos_id=pad,
        eos_id=eos,
    )

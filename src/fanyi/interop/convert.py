"""Import a Hugging Face MarianMT checkpoint (an OPUS-MT model, say), or a Pegasus one with
MarianTokenizer's files (fanyi's export of a pre-norm model), as a fanyi model directory.

A MarianMT directory holds ``config.json``, the weights (``model.safetensors``, or the older
``pytorch_model.bin``), ``source.spm`` and ``target.spm`` (SentencePiece models) and
``vocab.json``, the one table from pieces of either to the model's ids. The fanyi directory
keeps the three vocabulary files as they are; its ``vocab`` section names the table (``ids``).
A name that is not a local directory is downloaded from the Hugging Face Hub first.

Nothing is trusted: the configs are checked (types, bounds), the SentencePiece models loaded, and
the weights' names and shapes checked against the config on a model of meta tensors before
anything of the config's size is built. Weights are read as safetensors, or with
``torch.load(weights_only=True)``, which accepts tensors and plain containers only: a file that
needs the full unpickler (it could run code) is refused with a safe way to convert it.
"""

from __future__ import annotations

import json
import pickle
import re
import tempfile
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from .._version import __version__
from ..config import to_dict
from ..data.vocab import Vocab
from ..filenames import (
    HF_CONFIG_FILE,
    HF_GENERATION_CONFIG_FILE,
    HF_TOKENIZER_CONFIG_FILE,
    HF_TORCH_WEIGHTS_FILE,
    HF_WEIGHTS_FILE,
    SOURCE_SPM,
    TARGET_SPM,
    VOCAB_JSON,
)
from ..inputs import VOCABULARY_BYTES, parse_json, read_bytes
from ..model import ModelConfig, Transformer
from ..model_dir import checked_model, read_tensors, write_model_dir
from ..outputs import claim_dir
from ..sections import RunInfo, VocabFiles
from . import marian, pegasus
from .marian_npz import Release, read_release, release_npz

PICKLES = ("*.bin", "*.pt", "*.pth", "*.ckpt", "*.pkl", "*.pickle")
_OPUS_NAME = re.compile(r"opus-mt-([a-z]{2,3})-([a-z]{2,3})$")
SAFE_CONVERSION = (
    "fanyi does not unpickle it (unpickling can run code). Convert it to safetensors where "
    'running its code is safe (a throw-away container), e.g. python -c "import torch; '
    "from safetensors.torch import save_file; s = torch.load('{path}', weights_only=False); "
    "save_file({{k: v.contiguous() for k, v in s.items()}}, 'model.safetensors')\", or for a "
    "Hub model with the Hub's own converter (https://huggingface.co/spaces/safetensors/convert)"
)


def convert_marian(
    source: str,
    out: str | Path,
    src_lang: str | None = None,
    tgt_lang: str | None = None,
    revision: str | None = None,
    overwrite: bool = False,
) -> Path:
    """Write the fanyi model directory ``out`` for MarianMT or Pegasus checkpoint ``source`` (or
    a Marian release: ``marian_npz.py``), over a model only with ``overwrite``, over anything
    else never."""
    out = claim_dir(out, overwrite)
    directory = locate(source, revision)
    tokenizer = read_json(directory / HF_TOKENIZER_CONFIG_FILE, required=False)
    if tokenizer.get("separate_vocabs"):
        raise ValueError("unsupported MarianMT feature: separate_vocabs (target_vocab.json)")
    npz = None if (directory / HF_CONFIG_FILE).is_file() else release_npz(directory)
    found = read_checkpoint(directory) if npz is None else read_release(directory, npz)
    model_config = model_config_of(found.config)
    check_vocabularies(directory, found.table, model_config)
    model = load_weights(directory, found.weights, model_config)
    langs = languages(source, tokenizer, src_lang, tgt_lang)
    decode = marian.decode_defaults(found.generation)
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / VOCAB_JSON  # as read (a Marian release has none of its own)
        table.write_text(json.dumps(found.table, ensure_ascii=False), encoding="utf-8")
        vocab_files = [directory / SOURCE_SPM, directory / TARGET_SPM, table]
        return write_model_dir(
            out, model.eval(), sections(model_config, langs, source, decode), vocab_files
        )


def model_config_of(config: dict[str, Any]) -> ModelConfig:
    """fanyi's ``ModelConfig`` for a MarianMT or Pegasus ``config.json``, checked."""
    if config.get("model_type") == "pegasus":
        return pegasus.model_config(config)
    return marian.model_config(config)


def read_checkpoint(directory: Path) -> Release:
    """A Hugging Face MarianMT (or Pegasus) directory's config, vocabulary table, weights and
    beam."""
    config = read_json(directory / HF_CONFIG_FILE)
    if config.get("model_type") == "pegasus" and not (directory / VOCAB_JSON).is_file():
        raise ValueError(
            f"{directory}: a Pegasus model without MarianTokenizer's {VOCAB_JSON}, {SOURCE_SPM} "
            f"and {TARGET_SPM} (PegasusTokenizer's ids, as Google's summarisation models have, "
            "are not fanyi's): fanyi converts the Pegasus models it exports"
        )
    generation = read_json(directory / HF_GENERATION_CONFIG_FILE, required=False) or config
    table = read_json(directory / VOCAB_JSON)
    return Release(config, table, read_weights(directory), generation)


def locate(source: str, revision: str | None = None) -> Path:
    """``source`` itself when it is a directory, else its Hugging Face Hub snapshot."""
    path = Path(source).expanduser()
    if path.is_dir():
        return path
    if path.suffix in (".pt", ".pth"):
        raise ValueError(
            f"{source}: fanyi does not convert OpenNMT-py (or other torch.save) checkpoints: they "
            "hold pickled Python objects (OpenNMT-py's options), which fanyi will not unpickle "
            "(docs/interop.md says why and what to do instead)"
        )
    if path.exists():
        raise ValueError(
            f"{source} is a file; give a MarianMT directory, a Marian release's directory (its "
            "model.npz, *.vocab.yml, source.spm, target.spm) or a Hub name"
        )
    try:
        from huggingface_hub import list_repo_files, snapshot_download

        files = set(list_repo_files(source, revision=revision))
        weights = HF_WEIGHTS_FILE if HF_WEIGHTS_FILE in files else HF_TORCH_WEIGHTS_FILE
        patterns = ["*.json", "*.spm", weights]
        return Path(snapshot_download(source, revision=revision, allow_patterns=patterns))
    except Exception as error:  # no network, no such repository, no huggingface_hub: one line
        raise ValueError(
            f"{source} is not a local directory, and fetching it from the Hugging Face Hub "
            f"failed ({type(error).__name__}: {error})"
        ) from None


def read_json(path: Path, required: bool = True) -> dict[str, Any]:
    """The JSON object in ``path`` ({} for a missing file that is not ``required``)."""
    if not path.is_file():
        if required:
            raise FileNotFoundError(f"{path} not found: not a MarianMT directory")
        return {}
    value = parse_json(read_bytes(path, VOCABULARY_BYTES), path)  # vocab.json: 65k pieces
    if not isinstance(value, dict):
        raise ValueError(f"{path}: expected a JSON object, not {type(value).__name__}")
    return value


def check_vocabularies(directory: Path, table: dict[str, Any], c: ModelConfig) -> None:
    """The vocabulary ``table`` must give every id below the model's vocabulary size, specials
    agreeing, and ``source.spm`` and ``target.spm`` must be SentencePiece models."""
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in table.values()):
        raise ValueError(f"{VOCAB_JSON}: expected an object of piece → integer id")
    ids = sorted(set(table.values()))
    if ids != list(range(len(ids))) or len(ids) > c.tgt_vocab_size:
        raise ValueError(f"{VOCAB_JSON}: ids are not 0..n-1 with n ≤ vocab_size {c.tgt_vocab_size}")
    for piece, expected in (("<pad>", c.pad_id), ("</s>", c.eos_id)):
        if table.get(piece) != expected:
            raise ValueError(
                f"{VOCAB_JSON}: {piece} is {table.get(piece)}, the config says {expected}"
            )
    for name in (SOURCE_SPM, TARGET_SPM):
        Vocab(directory / name, table)


def load_weights(directory: Path, weights: dict[str, Tensor], c: ModelConfig) -> Transformer:
    """The model ``c`` holding MarianMT (post-norm ``c``) or Pegasus (pre-norm) ``weights``, whose
    names and shapes are checked on a model of meta tensors first (a config cannot make fanyi
    allocate more than the weights)."""
    to_fanyi = pegasus.fanyi_state if c.norm == "pre" else marian.fanyi_state
    return checked_model(c, to_fanyi(weights, c), directory)


def read_weights(directory: Path) -> dict[str, Tensor]:
    """The checkpoint's tensors: safetensors, else a PyTorch file holding tensors only."""
    if (directory / HF_WEIGHTS_FILE).is_file():
        return read_tensors(directory / HF_WEIGHTS_FILE)[0]  # a pickle under this name is refused
    if (directory / HF_TORCH_WEIGHTS_FILE).is_file():
        return torch_weights(directory / HF_TORCH_WEIGHTS_FILE)
    pickles = sorted(p.name for pattern in PICKLES for p in directory.glob(pattern))
    if pickles:
        message = SAFE_CONVERSION.format(path=directory / pickles[0])
        raise ValueError(
            f"{directory} holds {', '.join(pickles)} but no {HF_WEIGHTS_FILE}: {message}"
        )
    raise FileNotFoundError(f"{directory} has no {HF_WEIGHTS_FILE} or {HF_TORCH_WEIGHTS_FILE}")


def torch_weights(path: Path) -> dict[str, Tensor]:
    """A ``torch.save``-d state dict, loaded with the restricted (weights-only) unpickler."""
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError) as error:
        message = SAFE_CONVERSION.format(path=path)
        raise ValueError(f"{path} is not a plain tensor file ({error}); {message}") from None
    if not isinstance(state, dict) or not all(isinstance(t, Tensor) for t in state.values()):
        raise ValueError(f"{path} is not a state dict of tensors")
    return state


def languages(
    source: str, tokenizer: dict[str, Any], src_lang: str | None, tgt_lang: str | None
) -> tuple[str, str]:
    """(source, target) language: as given, else from an OPUS-MT name or the tokenizer config."""
    match = _OPUS_NAME.search(source.rstrip("/"))
    guess = (
        match.groups() if match else (tokenizer.get("source_lang"), tokenizer.get("target_lang"))
    )
    src, tgt = src_lang or guess[0], tgt_lang or guess[1]
    if not src or not tgt or src == tgt:
        raise ValueError("cannot tell the languages from the name: give --src-lang and --tgt-lang")
    if not all(isinstance(lang, str) for lang in (src, tgt)):
        raise ValueError(f"{HF_TOKENIZER_CONFIG_FILE}: source_lang and target_lang must be strings")
    return src, tgt


def sections(
    model: ModelConfig, langs: tuple[str, str], source: str, decode: dict[str, Any]
) -> dict[str, Any]:
    """``config.yaml`` of the converted model: MarianMT reads text as given (no NFKC, no T2S);
    of the data settings only what describes the model's text (no corpus was prepared)."""
    src, tgt = langs
    data = {"train": "", "src_lang": src, "tgt_lang": tgt, "columns": {src: 0, tgt: 1}}
    vocab = VocabFiles(SOURCE_SPM, TARGET_SPM, joint=True, ids=VOCAB_JSON)
    return {
        "model": to_dict(model),
        "data": {**data, "nfkc": False, "t2s": False},
        "vocab": vocab.section(),
        "checkpoint": RunInfo(fanyi=__version__, converted_from=source).section(),
        "decode": decode,
    }

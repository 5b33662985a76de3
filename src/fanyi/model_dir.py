"""Model directories: what training writes and translation reads, in safetensors and YAML.

A model directory holds ``model.safetensors`` (each shared tensor stored once; its matrices
int8 when ``int8_storage`` wrote them, read back as floats here), ``config.yaml``
(sections ``model``, ``data``, ``train``, ``vocab``, ``checkpoint``) and the SentencePiece
model(s); a checkpoint of a run also holds its resume state (written by ``fanyi.train``). A
directory is written complete under a temporary name, then renamed into place (swapped in one
step where one stands: ``fanyi.atomic``); a run directory's ``checkpoints.json`` (replaced
atomically) names its ``last`` and ``best`` checkpoints. A crash at any moment therefore leaves
the previous checkpoint loadable. Nothing is ever unpickled: pickle files are refused, since
loading one can run code. What ``config.yaml`` says, typed, is a ``sections.Checkpoint``.
"""

from __future__ import annotations

import errno
import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch
import yaml
from safetensors import SafetensorError, safe_open
from safetensors.torch import save_file
from torch import Tensor, nn

from .atomic import fsync, staged_dir, write_json_atomic, write_text_atomic
from .filenames import (
    AVERAGED_DIR,
    CONFIG_FILE,
    CT2_CONFIG_FILE,
    CT2_MODEL_FILE,
    INDEX_FILE,
    MODEL_FILE,
)
from .inputs import check_regular, read_json
from .int8_storage import dequantized, from_stored, is_int8_rows, stored_rows, to_int8_rows
from .model import ModelConfig, Transformer, build_model
from .model.inference.int8 import int8_from_rows
from .outputs import claim_dir, publish_dir
from .sections import Checkpoint, read_config, read_sections, read_yaml
from .text.recase import table_beside

ENSEMBLE_KEY = "ensemble"  # config.yaml of an ensemble directory: its members (ensemble_dir.py)
PICKLE_SUFFIXES = (".pt", ".pth", ".bin", ".ckpt", ".pkl", ".pickle")


# --- writing ---


def model_tensors(model: torch.nn.Module) -> tuple[dict[str, Tensor], dict[str, str]]:
    """The state dict with each shared tensor once, and {dropped name: kept name} to re-tie."""
    tensors: dict[str, Tensor] = {}
    aliases: dict[str, str] = {}
    seen: dict[tuple[int, int, tuple[int, ...]], str] = {}
    for name, tensor in model.state_dict().items():
        key = (tensor.data_ptr(), tensor.storage_offset(), tuple(tensor.shape))
        if key in seen:
            aliases[name] = seen[key]
        else:
            seen[key] = name
            tensors[name] = tensor.detach().cpu().contiguous()
    return tensors, aliases


def write_model_dir(
    path: str | Path,
    model: torch.nn.Module,
    sections: dict[str, Any],
    vocab_files: Sequence[Path],
    extra: Callable[[Path], None] | None = None,
    int8: bool = False,
) -> Path:
    """Write a complete model directory at ``path`` atomically (temporary directory + rename);
    ``extra(directory)`` may add files (a checkpoint's resume state) before the rename; ``int8``
    stores the matrices as int8 rows (``fanyi.int8_storage``)."""
    path = Path(path)
    with staged_dir(path) as tmp:
        tensors, aliases = model_tensors(model)
        metadata = {"aliases": json.dumps(aliases)}
        if int8:
            tensors, quantized = to_int8_rows(tensors)
            metadata |= quantized
        try:
            save_file(tensors, tmp / MODEL_FILE, metadata=metadata)
        except SafetensorError as error:  # how safetensors reports a full disk
            raise OSError(errno.EIO, str(error)) from error
        for vocab_file in dict.fromkeys([*vocab_files, *table_beside(vocab_files)]):
            shutil.copyfile(vocab_file, tmp / Path(vocab_file).name)
        (tmp / CONFIG_FILE).write_text(
            yaml.safe_dump(sections, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
        if extra is not None:
            extra(tmp)
        publish_dir(tmp, path)  # in one step, even over the run's `last` (a resumed, rewound run)
    fsync(path.parent)
    return path


def write_decode_defaults(path: str | Path, values: dict[str, Any]) -> None:
    """Record ``values`` (DecodeConfig keys, tuned on dev) in the ``decode`` section of the
    model directory's ``config.yaml``, replaced atomically: the model's decoding defaults."""
    config = Path(path) / CONFIG_FILE
    sections = read_yaml(config)
    if ENSEMBLE_KEY not in sections:
        sections = read_sections(config)
    sections["decode"] = {**(sections.get("decode") or {}), **values}
    write_text_atomic(config, yaml.safe_dump(sections, sort_keys=False, allow_unicode=True))


# --- reading ---


def refuse_pickle(path: Path) -> None:
    """Raise if ``path`` is, by name or by content, a pickle or ``torch.save`` file."""
    if path.suffix in PICKLE_SUFFIXES:
        raise ValueError(
            f"{path}: refusing a pickle-format checkpoint (unpickling can run code); "
            "fanyi reads safetensors model directories only"
        )
    with open(path, "rb") as f:
        head = f.read(4)
    if (
        head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")
    ) or head == b"PK\x03\x04":
        raise ValueError(
            f"{path}: this is a pickle/torch.save file, not safetensors; refusing "
            "to load it (unpickling can run code)"
        )


def read_tensors(
    path: Path, metadata_only: bool = False
) -> tuple[dict[str, Tensor], dict[str, str]]:
    """The tensors (none with ``metadata_only``) and metadata of safetensors file ``path`` (a
    regular file, not a pickle)."""
    check_regular(path)
    refuse_pickle(path)
    try:
        with safe_open(str(path), framework="pt", device="cpu") as f:  # moved by the reader
            metadata = f.metadata() or {}
            keys = [] if metadata_only else f.keys()
            return {k: f.get_tensor(k) for k in keys}, metadata
    except SafetensorError as error:  # empty, truncated, not safetensors at all
        raise ValueError(f"{path}: not a readable safetensors file ({error})") from None


def resolve(path: str | Path, which: str = "best") -> Path:
    """A model directory: ``path`` itself, or its run's ``best``/``last`` checkpoint."""
    path = Path(path)
    if path.is_file():
        refuse_pickle(path)
        raise ValueError(f"{path} is a file; give its model directory")
    if (path / MODEL_FILE).is_file():
        return path
    if (path / INDEX_FILE).is_file():
        index = read_index(path)
        name = index.get(which) or index["last"]
        if name:
            return inside_run(path, name)
    if (path / CONFIG_FILE).is_file() and ENSEMBLE_KEY in read_yaml(path / CONFIG_FILE):
        raise ValueError(
            f"{path} is an ensemble of several models; this takes one model: give one of its "
            "member directories"
        )
    if (path / CT2_MODEL_FILE).is_file() and (path / CT2_CONFIG_FILE).is_file():
        raise ValueError(
            f"{path} is a CTranslate2 model, which the fanyi engine does not read: add "
            "--engine ctranslate2 (fanyi translate, evaluate, serve)"
        )
    pickles = [p.name for p in path.glob("*") if p.suffix in PICKLE_SUFFIXES]
    if pickles:
        raise ValueError(
            f"{path} holds {', '.join(pickles)} but no {MODEL_FILE}: fanyi refuses "
            "pickle checkpoints (unpickling can run code)"
        )
    raise FileNotFoundError(
        f"{path} is neither a model directory ({MODEL_FILE}) nor a run directory ({INDEX_FILE})"
    )


def read_checkpoint(path: str | Path, which: str = "best") -> Checkpoint:
    """The configs of a model directory (or of a run's best/last checkpoint)."""
    return read_config(resolve(path, which))


def read_state_dict(model_dir: str | Path) -> dict[str, Tensor]:
    """Every tensor of ``model.safetensors``, shared ones under each of their names; stored
    int8 matrices are float32 again."""
    path = Path(model_dir) / MODEL_FILE
    tensors, metadata = read_tensors(path)
    return _with_aliases(from_stored(tensors, metadata, path), metadata)


def _with_aliases(tensors: dict[str, Any], metadata: dict[str, str]) -> dict[str, Any]:
    """``tensors`` with each shared one of them under every name the metadata's aliases give it
    too (a name missing from a file then reads as missing from its model)."""
    for alias, name in json.loads(metadata.get("aliases", "{}")).items():
        if name in tensors:
            tensors[alias] = tensors[name]
    return tensors


def stores_int8_rows(model_dir: str | Path) -> bool:
    """Whether the ``model.safetensors`` of ``model_dir`` holds its matrices as int8 rows (its
    metadata only is read)."""
    path = Path(model_dir) / MODEL_FILE
    return is_int8_rows(read_tensors(path, metadata_only=True)[1], path)


def load_int8_model(checkpoint: Checkpoint) -> Transformer:
    """The model of ``checkpoint`` (one model directory whose matrices are stored as int8 rows,
    ``stores_int8_rows``) decoding in int8 on the CPU, its linear maps made from the rows as
    stored (``int8_from_rows``): what ``load_model`` then ``quantize_int8`` make, bit for bit,
    without dequantising the rows and quantising them again. Other matrices (the embeddings)
    are float32 again."""
    path = checkpoint.path / MODEL_FILE
    tensors, metadata = read_tensors(path)
    plain, rows = stored_rows(tensors, metadata, path)
    plain, rows = _with_aliases(plain, metadata), _with_aliases(rows, metadata)
    with torch.device("meta"):
        skeleton = build_model(checkpoint.model, initialise=False)
    shapes = {k: torch.empty(q.shape, device="meta") for k, (q, _) in rows.items()}
    load_into(skeleton, {**{k: t.to("meta") for k, t in plain.items()}, **shapes}, path)
    model = build_model(checkpoint.model, initialise=False)  # linear weights: never read
    maps = {f"{name}.weight" for name, m in model.named_modules() if isinstance(m, nn.Linear)}
    model.load_state_dict(plain | dequantized(rows, rows.keys() - maps), strict=False)
    return int8_from_rows(model, {k: rows[k] for k in maps})  # the maps: made of rows


def load_into(model: Transformer, state_dict: dict[str, Tensor], source: Path) -> None:
    """Copy ``state_dict`` into ``model``, explaining any mismatch with its config."""
    expected = model.state_dict()
    problems = [f"missing {k}" for k in expected if k not in state_dict]
    problems += [f"unexpected {k}" for k in state_dict if k not in expected]
    problems += [
        f"{k}: {tuple(t.shape)} in the file, {tuple(expected[k].shape)} by the config"
        for k, t in state_dict.items()
        if k in expected and t.shape != expected[k].shape
    ]
    if problems:
        raise ValueError(f"{source} does not match its model config: " + "; ".join(problems[:5]))
    model.load_state_dict(state_dict)


def load_model(
    model_dir: str | Path, dtype: torch.dtype | None = None, device: str | torch.device = "cpu"
) -> tuple[Transformer, Checkpoint]:
    """The trained model (in eval mode) and its configs, from a model or run directory."""
    checkpoint = read_checkpoint(model_dir)
    state = read_state_dict(checkpoint.path)
    model = checked_model(checkpoint.model, state, checkpoint.path / MODEL_FILE)
    return model.to(device=device, dtype=dtype).eval(), checkpoint


def checked_model(config: ModelConfig, state: dict[str, Tensor], source: Path) -> Transformer:
    """The model ``config`` holding ``state``, whose names and shapes are checked against the
    config on a model of meta tensors first: a config cannot make fanyi allocate more than the
    weights ``source`` holds."""
    with torch.device("meta"):
        skeleton = build_model(config, initialise=False)
    load_into(skeleton, {k: t.to("meta") for k, t in state.items()}, source)
    model = build_model(config, initialise=False)  # every weight is loaded next
    load_into(model, state, source)
    return model


def average_checkpoints(paths: Sequence[str | Path]) -> dict[str, Tensor]:
    """The element-wise mean of the parameters of ``paths`` (same model config required)."""
    if not paths:
        raise ValueError("no checkpoints to average")
    configs = [read_checkpoint(p).model for p in paths]
    if any(c != configs[0] for c in configs):
        raise ValueError("cannot average checkpoints of different model configs")
    total: dict[str, Tensor] = {}
    dtypes: dict[str, torch.dtype] = {}  # the first checkpoint's, as read
    for path in paths:
        for name, tensor in read_state_dict(resolve(path)).items():
            dtypes.setdefault(name, tensor.dtype)
            total[name] = total.get(name, 0) + tensor.double()
    return {k: (v / len(paths)).to(dtypes[k]) for k, v in total.items()}


# --- a run directory's index of checkpoints ---


def read_index(run_dir: str | Path) -> dict[str, Any]:
    """``{"last": name, "best": name, "kept": [names, oldest first]}`` of a run directory, each
    name a checkpoint directory inside the run (a clear error for anything else)."""
    path = Path(run_dir) / INDEX_FILE
    if not path.is_file():
        return {"last": None, "best": None, "kept": []}
    index = read_json(path)
    shape = '{"last": NAME, "best": NAME, "kept": [NAME, ...]}'
    if not isinstance(index, dict) or not isinstance(index.get("kept", []), list):
        raise ValueError(f"{path}: expected {shape}, not {json.dumps(index)[:60]}")
    found = {"last": index.get("last"), "best": index.get("best"), "kept": index.get("kept", [])}
    for name in [found["last"], found["best"], *found["kept"]]:
        if name is not None and not _checkpoint_name(name):
            raise ValueError(f"{path}: {name!r} is not the name of a checkpoint inside the run")
    return found


def inside_run(run_dir: Path, name: str) -> Path:
    """Checkpoint ``name`` of ``run_dir``, refused when a link takes it outside the run."""
    home = run_dir.resolve()
    if not (run_dir / name).resolve().is_relative_to(home):
        raise ValueError(f"{run_dir / name} leads outside the run directory {run_dir}")
    return run_dir / name


def _checkpoint_name(name: object) -> bool:
    """Whether ``name`` names a directory inside the run: one plain path component."""
    return isinstance(name, str) and name not in ("", "..") and Path(name).name == name


def record_checkpoint(run_dir: str | Path, name: str, is_best: bool, keep_last: int) -> None:
    """Make ``name`` the run's last (and maybe best) checkpoint; delete those no longer kept."""
    run_dir = Path(run_dir)
    old = read_index(run_dir)
    kept = [n for n in old["kept"] if n != name] + [name]
    index = {"last": name, "best": name if is_best else old["best"], "kept": kept[-keep_last:]}
    write_json_atomic(run_dir / INDEX_FILE, index)  # the switch: before it, the old one holds
    for stale in {*old["kept"], old["best"]} - {*index["kept"], index["best"], None}:
        shutil.rmtree(run_dir / stale, ignore_errors=True)


STORAGE_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
STORAGE_FORMATS = [*STORAGE_DTYPES, "int8"]  # int8: matrices as int8 rows, the rest fp16


def average_run(
    run_dir: str | Path,
    last: int,
    out: str | Path | None = None,
    dtype: str = "fp32",
    overwrite: bool = False,
) -> Path:
    """Average the run's ``last`` most recent kept checkpoints into model directory ``out``
    (default RUN/averaged; a model there is replaced only with ``overwrite``).

    ``dtype`` (fp32, fp16, bf16, int8) is how the weights are stored: fp16 halves a model to
    ship, int8 (matrices only, one scale per row) nearly halves it again; loading casts them back
    to the dtype asked for.
    """
    run_dir = Path(run_dir)
    out = claim_dir(Path(out) if out else run_dir / AVERAGED_DIR, overwrite)
    kept = read_index(run_dir)["kept"]
    if len(kept) < last:
        raise ValueError(f"{run_dir} keeps {len(kept)} checkpoint(s), fewer than --last {last}")
    chosen = [inside_run(run_dir, name) for name in kept[-last:]]
    return _write_average(chosen, chosen[-1], [p.name for p in chosen], out, dtype)


def average_models(
    paths: Sequence[str | Path],
    out: str | Path,
    dtype: str = "fp32",
    overwrite: bool = False,
    labels: Sequence[str] | None = None,
) -> Path:
    """A "model soup" (Wortsman et al. 2022): the uniform mean of the weights of several models
    of one config and vocabulary, each fine-tuned from the same one (a run directory stands for
    its best checkpoint). ``out`` takes the first model's configs, decoding defaults included,
    and records ``labels`` (default the paths) as what it was averaged from."""
    out = claim_dir(out, overwrite)
    chosen = [resolve(p) for p in paths]
    vocab = vocab_bytes(chosen[0])
    for path in chosen[1:]:
        if vocab_bytes(path) != vocab:
            raise ValueError(f"cannot average {chosen[0]} and {path}: their vocabularies differ")
    return _write_average(chosen, chosen[0], list(labels or map(str, paths)), out, dtype)


def vocab_bytes(model_dir: Path) -> tuple[bytes, bytes]:
    """The bytes of a model's source and target SentencePiece models."""
    checkpoint = read_checkpoint(model_dir)
    return checkpoint.src_spm.read_bytes(), checkpoint.tgt_spm.read_bytes()


def _write_average(
    chosen: Sequence[Path], template: Path, names: list[str], out: Path, dtype: str
) -> Path:
    """Write the mean of ``chosen`` at ``out`` with ``template``'s configs and vocabulary,
    recording ``names`` as what it was averaged from, stored in ``dtype``."""
    checkpoint = read_checkpoint(template)
    model = build_model(checkpoint.model)
    load_into(model, average_checkpoints(chosen), template / MODEL_FILE)
    sections = read_yaml(template / CONFIG_FILE)
    sections["checkpoint"] = {
        **sections.get("checkpoint", {}),
        "metrics": {},
        "averaged_from": names,
    }
    vocab_files = [checkpoint.src_spm, checkpoint.tgt_spm]
    if dtype != "int8":
        model = model.to(STORAGE_DTYPES[dtype])
    return write_model_dir(out, model, sections, vocab_files, int8=dtype == "int8")

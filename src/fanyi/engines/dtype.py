"""``LoadOptions.dtype: auto``: the fastest decoding dtype of this host for this model, never
slower than fp32.

What is fast depends on the CPU more than on the model: bf16 has hardware only where the CPU has
bf16 instructions (``precision.BF16_FLAGS``) and is emulated, 4-5× slower than fp32, elsewhere, so it
is a candidate only there; int8 (dynamic quantisation) runs everywhere. The candidates are also
those the load options allow (``auto_dtypes``: ``fanyi tune --dtypes`` keeps the dtypes whose dev
BLEU is within 0.3 of fp32). On AMX bf16 is taken at once (the fastest measured there); where
in doubt, each candidate decodes the same synthetic batch with the search's beam for a fixed
number of steps, and the fastest wins; another dtype replaces fp32 only when it is faster by
``MARGIN``. The choice is kept in a cache file per model, CPU, torch version and
threads, so a host times a model once and decodes it in one dtype whatever the beam (a beam
given per call could not change the model's dtype anyway).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import torch

from .. import precision
from ..decode.options import DTYPES, Dtype, LoadOptions, SearchOptions
from ..decode.search import decode
from ..filenames import DTYPE_CACHE_FILE, MODEL_FILE
from ..model import Model, Transformer
from ..model.inference import packed_float32, quantize_int8, to_bfloat16
from ..sections import Checkpoint

MARGIN = 0.05  # a dtype must beat fp32 by 5% (timing noise stays with fp32)
SOURCES, LENGTH, STEPS, ROUNDS = 4, 16, 12, 2  # the timed batch: sources x tokens, steps, best of


def candidates(load: LoadOptions, flags: frozenset[str], device: torch.device) -> list[Dtype]:
    """fp32, then the dtypes ``load`` allows (``auto_dtypes``) that ``device`` runs natively: on
    a CPU int8, and bf16 only with bf16 instructions (``flags``); on a GPU bf16 where the card
    supports it; never int8 for compiled steps."""
    native = precision.native_dtypes(device, flags)
    if load.compile:
        native.discard("int8")  # compiled steps run fp32 or bf16
    chosen: list[Dtype] = ["fp32"]
    return chosen + [d for d in ("int8", "bf16") if d in native and d in load.auto_dtypes]


def timing_options(search: SearchOptions) -> SearchOptions:
    """``search``'s beam and α, every hypothesis exactly ``STEPS`` tokens long: EOS is forbidden
    before and forced at ``STEPS``, so a timing does not depend on what is decoded."""
    return SearchOptions(
        beam=search.beam,
        length_penalty=search.length_penalty,
        min_len=STEPS,
        max_len_a=0.0,
        max_len_b=STEPS,
    )


def seconds_per_batch(model: Model, search: SearchOptions, dtype: Dtype) -> float:
    """Best of ``ROUNDS`` timings of ``model`` in ``dtype`` decoding a synthetic batch (random
    source ids) with ``search``'s beam."""
    fixed = timing_options(search)
    prepared = prepare_model(model, dtype)
    generator = torch.Generator().manual_seed(0)
    low = 4  # past pad, unk, bos, eos
    src = torch.randint(low, model.config.src_vocab_size, (SOURCES, LENGTH), generator=generator)
    src = src.to(next(model.parameters()).device)
    decode(prepared, src, fixed)  # warm up: caches, quantisation and allocator
    timings = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        decode(prepared, src, fixed)
        timings.append(time.perf_counter() - start)
    return min(timings)


def fastest(model: Model, search: SearchOptions, allowed: list[Dtype]) -> Dtype:
    """The dtype of ``allowed`` that decodes fastest; fp32 unless another beats it by
    ``MARGIN``."""
    timed = {dtype: seconds_per_batch(model, search, dtype) for dtype in allowed}
    best = min(timed, key=timed.__getitem__)
    return best if timed[best] < (1 - MARGIN) * timed["fp32"] else "fp32"


def choose_dtype(
    model: Model,
    load: LoadOptions,
    search: SearchOptions | None = None,
    model_key: str | None = None,
    flags: frozenset[str] | None = None,
) -> Dtype:
    """``load.dtype``, or for ``auto`` the fastest dtype of those ``load`` allows, timed with
    ``search``'s beam (default SearchOptions') and cached under ``model_key`` when given: a
    string that changes when the model's weights do."""
    if load.dtype != "auto":
        return load.dtype
    flags = precision.cpu_flags() if flags is None else flags
    device = next(model.parameters()).device
    settled = settled_dtype(load, device, model_key, flags)
    if settled is not None:
        return settled
    allowed = candidates(load, flags, device)
    choice = fastest(model, search or SearchOptions(), allowed)
    if model_key is not None:
        key = _cache_key(model_key, allowed, flags)
        _write_cache({**_read_cache(), key: choice})
    return choice


def settled_dtype(
    load: LoadOptions,
    device: torch.device,
    model_key: str | None = None,
    flags: frozenset[str] | None = None,
) -> Dtype | None:
    """The dtype :func:`choose_dtype` takes for a model on ``device`` without timing it:
    ``load.dtype``, or for ``auto`` the only candidate, bf16 where it is the fastest, or the
    choice cached under ``model_key``; None where ``auto`` must time the model."""
    if load.dtype != "auto":
        return load.dtype
    flags = precision.cpu_flags() if flags is None else flags
    allowed = candidates(load, flags, device)
    if len(allowed) == 1:
        return allowed[0]
    if "bf16" in allowed and precision.bf16_fastest(device, flags):
        return "bf16"
    cached = None if model_key is None else _read_cache().get(_cache_key(model_key, allowed, flags))
    return cached if cached in allowed else None


def prepare_model(model: Model, dtype: Dtype, compile: bool = False) -> Model:
    """``model`` decoding in ``dtype`` (its decoder steps compiled with ``compile``), in eval
    mode: a copy, except in fp32 off a CPU (a GPU decodes with the model itself). ``auto`` is
    :func:`choose_dtype`'s to settle first."""
    if dtype not in DTYPES:
        raise ValueError(f"prepare a model in fp32, bf16 or int8, not {dtype!r}")
    if compile and dtype == "int8":
        raise ValueError("compile runs fp32 or bf16 models, not int8")
    return model.map(_converter(dtype, compile))


def _converter(dtype: Dtype, compiled: bool) -> Callable[[Transformer], Transformer]:
    """What turns an fp32 model into one decoding in ``dtype``."""
    if compiled:
        # imported here: TorchInductor's modules add ~1 s to the start of every command
        from ..model.inference.compiled import compile_decoder

        if dtype == "bf16":  # never int8: prepare_model and ``candidates`` rule it out
            return lambda model: compile_decoder(to_bfloat16(model, pack=False))
        return compile_decoder
    return {"bf16": to_bfloat16, "int8": quantize_int8}.get(dtype, packed_float32)


def weights_key(checkpoint: Checkpoint) -> str:
    """A name for a model directory's weights (an ensemble's: all its members') that changes
    when they do (each file's path, size and modification time): the key of the dtype ``auto``
    chose for them."""
    keys = []
    for directory in checkpoint.model_dirs:
        weights = (Path(directory) / MODEL_FILE).resolve()
        stat = weights.stat()
        keys.append(f"{weights} ({stat.st_size} bytes, mtime {stat.st_mtime_ns})")
    return " + ".join(keys)


def cache_dir() -> Path:
    """``$FANYI_CACHE`` or ``$XDG_CACHE_HOME/fanyi`` (default ``~/.cache/fanyi``)."""
    if os.environ.get("FANYI_CACHE"):
        return Path(os.environ["FANYI_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fanyi"


def _cache_key(model_key: str, allowed: list[Dtype], flags: frozenset[str]) -> str:
    cpu = f"{precision.cpu_name()} [{' '.join(precision.isa(flags))}]"
    setting = f"{torch.get_num_threads()} threads, {'/'.join(allowed)}"  # not the beam: see above
    return f"{model_key} | {cpu} | torch {torch.__version__} | {setting}"


def _read_cache() -> dict[str, Dtype]:
    """The cached choices (none when the file is missing or unreadable: it is only a cache)."""
    try:
        return json.loads((cache_dir() / DTYPE_CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write_cache(choices: dict[str, Dtype]) -> None:
    """Write the choices through a temporary file; a cache that cannot be written is skipped."""
    path = cache_dir() / DTYPE_CACHE_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(choices, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass

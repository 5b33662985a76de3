"""Resuming: where training is, random generator states, and the resume state of a checkpoint.

A checkpoint of a run adds ``training_state.safetensors`` (tensors: the optimizer's moments, the
generators' states) and ``training_state.json`` (the structure around them) to its model
directory, so that nothing is ever pickled. A run saved by N processes may resume on M (elastic
resume): the epoch's remaining batches are shared anew, each rank gets a fresh dropout stream,
and the accumulation may be scaled to keep the batch of a step.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from safetensors.torch import save_file
from torch import Tensor

from .. import config as config_io
from ..data.manifest import sha256_file
from ..filenames import STATE_JSON, STATE_TENSORS
from ..model_dir import Checkpoint, read_tensors, refuse_pickle, resolve
from .config import RESUMABLE_CHANGES, TrainConfig
from .distributed import Distributed


@dataclass
class TrainState:
    """Where training is: saved with each checkpoint, so a resumed run continues exactly."""

    step: int = 0  # optimizer steps taken
    epoch: int = 0  # epoch of the next batch
    position: int = 0  # batches of that epoch already consumed (per process, after `earlier`)
    best: float | None = None  # best validation metric so far
    bad_validations: int = 0  # validations since the best (early stopping)
    # (processes, position) of each other number of processes that began this epoch
    earlier: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.earlier = [(int(processes), int(taken)) for processes, taken in self.earlier]

    def improved(self, score: float) -> bool:
        """Count a validation that scored ``score`` (higher is better) for early stopping;
        whether it is the best so far."""
        is_best = self.best is None or score > self.best
        self.best = score if is_best else self.best
        self.bad_validations = 0 if is_best else self.bad_validations + 1
        return is_best

    def regrouped(self, before: int, now: int) -> TrainState:
        """This state, saved by ``before`` processes, for ``now``: the epoch's position so far
        joins ``earlier``, and the ``now`` processes share what is left of the epoch."""
        if before == now or self.position == 0:
            return self
        return replace(self, earlier=[*self.earlier, (before, self.position)], position=0)


def kept_accumulation(before: int, accumulation: int, now: int) -> int:
    """The accumulation that gives ``now`` processes the batches per step that ``before``
    processes took with ``accumulation`` (``keep_effective_batch``)."""
    batches = before * accumulation
    if batches % now:
        raise ValueError(
            f"keep_effective_batch: {before} process(es) x accumulation {accumulation} = "
            f"{batches} batches per step cannot be shared by {now} processes; resume on a "
            f"divisor of {batches}, or set keep_effective_batch: false"
        )
    return batches // now


def seed_everything(seed: int) -> None:
    """Seed Python, NumPy and torch generators."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def capture_rng() -> dict[str, Any]:
    """Python, NumPy and torch (CPU, CUDA) generator states."""
    version, internal, gauss = random.getstate()
    numpy_state = cast(tuple[str, np.ndarray, int, int, float], np.random.get_state(legacy=True))
    name, keys, pos, has_gauss, cached = numpy_state
    state = {
        "python": [version, list(internal), gauss],
        "numpy": [name, keys.tolist(), pos, has_gauss, cached],
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state()
    return state


def restore_rng(state: dict[str, Any]) -> None:
    """Inverse of :func:`capture_rng`."""
    version, internal, gauss = state["python"]
    random.setstate((version, tuple(internal), gauss))
    name, keys, pos, has_gauss, cached = state["numpy"]
    np.random.set_state((name, np.array(keys, dtype=np.uint32), pos, has_gauss, cached))
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state(state["cuda"])


def restore_rank_rng(rng: dict[str, Any], rank: int, world_size: int, seed: int, step: int) -> None:
    """Restore the generators of ``rank`` of ``world_size`` from a checkpoint's (torch's and
    CUDA's saved per rank): its own states when the run had as many processes, which keeps
    resuming exact; else rank 0's, with a fresh dropout stream seeded by (seed, step, rank)."""
    same = len(rng["torch"]) == world_size
    per_rank: dict[str, Any] = {
        key: rng[key][rank if same else 0] for key in ("torch", "cuda") if key in rng
    }
    restore_rng({**rng, **per_rank})
    if not same:
        torch.manual_seed(int(np.random.SeedSequence([seed, step, rank]).generate_state(1)[0]))


def write_training_state(directory: Path, state: dict[str, Any]) -> None:
    """Add ``state`` (nested dicts, lists, tensors and scalars) to a model directory."""
    tensors: dict[str, Tensor] = {}
    structure = _split(state, "state", tensors)
    save_file(tensors, directory / STATE_TENSORS)
    (directory / STATE_JSON).write_text(json.dumps(structure), encoding="utf-8")


def _split(obj: Any, key: str, tensors: dict[str, Tensor]) -> Any:
    """``obj`` as JSON-able structure; each tensor moves to ``tensors`` under its path."""
    if isinstance(obj, Tensor):
        tensors[key] = obj.detach().cpu().contiguous()
        return {"__tensor__": key}
    if isinstance(obj, dict):
        if all(isinstance(k, str) for k in obj):
            return {k: _split(v, f"{key}.{k}", tensors) for k, v in obj.items()}
        return {"__items__": [[k, _split(v, f"{key}.{k}", tensors)] for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return [_split(v, f"{key}.{i}", tensors) for i, v in enumerate(obj)]
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise TypeError(f"cannot store a {type(obj).__name__} in a training state ({key})")


def _join(obj: Any, tensors: dict[str, Tensor]) -> Any:
    """Inverse of :func:`_split`."""
    if isinstance(obj, dict):
        if "__tensor__" in obj:
            return tensors[obj["__tensor__"]]
        if "__items__" in obj:
            return {k: _join(v, tensors) for k, v in obj["__items__"]}
        return {k: _join(v, tensors) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_join(v, tensors) for v in obj]
    return obj


def load_training_state(model_dir: str | Path) -> dict[str, Any]:
    """The resume state of a checkpoint directory (optimizer, RNG, data position, …)."""
    model_dir = Path(model_dir)
    files = (model_dir / STATE_TENSORS, model_dir / STATE_JSON)
    for path in files:
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found: {model_dir} cannot be resumed")
        refuse_pickle(path)
    return _join(json.loads(files[1].read_text(encoding="utf-8")), read_tensors(files[0])[0])


def saved_train_config(checkpoint: Checkpoint) -> TrainConfig:
    """The TrainConfig a checkpoint was trained with (a clear error for one that was not).

    Checkpoints written before ``model`` became a ModelConfig also name ``model_config: null``
    (a model YAML file, since removed); that key is dropped so that they can still be resumed.
    """
    if checkpoint.train is None:
        raise ValueError(f"{checkpoint.path} has no training config: it cannot be resumed")
    values = dict(checkpoint.train)
    if values.get("model_config", "absent") is None:
        del values["model_config"]
    return config_io.from_dict(TrainConfig, values)


def check_resumable(saved: TrainConfig, now: TrainConfig) -> None:
    """Refuse to resume with settings that would change the steps already taken."""
    old, new = config_io.to_dict(saved), config_io.to_dict(now)
    changed = [k for k in old if k not in RESUMABLE_CHANGES and old[k] != new[k]]
    if changed:
        details = ", ".join(f"{k}: {old[k]!r} → {new[k]!r}" for k in changed)
        raise ValueError(
            f"cannot resume with a different training config ({details}); only "
            f"{', '.join(sorted(RESUMABLE_CHANGES))} may change"
        )


def same_checkpoint(resume: str | Path, dist: Distributed) -> Path:
    """The checkpoint that ``resume`` (a run or checkpoint directory) names, the same one on
    every rank of a job: on several machines, the run directory must be a path all of them read."""
    try:
        path = resolve(resume, "last")
        found, missing = f"{path.name} {sha256_file(path / STATE_JSON)}", None
    except (FileNotFoundError, ValueError) as error:
        found, missing = f"none: {error}", error
    dist.check_same(f"the checkpoint to resume, {resume}", {"checkpoint": found})
    if missing is not None:
        raise missing
    return path

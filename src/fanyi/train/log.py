"""A run's ``log.jsonl``: one JSON record per logged training window and per validation."""

from __future__ import annotations

import json
import math
import time
import warnings
from pathlib import Path
from typing import Any

import torch

from ..filenames import LOG_FILE
from .distributed import Distributed


class RunLog:
    """Appends records to ``RUN/log.jsonl`` (only where ``enabled``: rank 0)."""

    def __init__(self, run_dir: Path, enabled: bool = True) -> None:
        self.path = run_dir / LOG_FILE
        self.enabled = enabled

    def append(self, record: dict[str, Any]) -> None:
        if self.enabled:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")

    def trim(self, step: int) -> None:
        """Drop records past ``step`` (a run resumed from it had logged beyond it), and a last
        line torn by the interruption (power loss, full disk), with a warning."""
        if self.enabled and self.path.is_file():
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
            records = [_record_or_none(line) for line in lines]
            if records and records[-1] is None:
                torn = lines[-1][:60]  # cut short by the interruption, or no record at all
                warnings.warn(f"{self.path}: dropped its torn last line {torn!r}", stacklevel=2)
                lines, records = lines[:-1], records[:-1]
            if None in records:
                number = records.index(None) + 1
                raise ValueError(f"{self.path}:{number}: not a JSON record; delete or mend it")
            kept = [line for line, r in zip(lines, records, strict=True) if r and r["step"] <= step]
            self.path.write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")


def _record_or_none(line: str) -> dict[str, Any] | None:
    """The record on ``line``: a JSON object with an integer ``step``; None for anything else."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("step"), int):
        return None
    return record


def train_record(
    step: int, epoch: int, sums: list[float], seconds: float, lr: float, norm: float
) -> dict[str, Any]:
    """The record of a training window from its (loss, NLL, tokens) sums over every rank."""
    loss, nll, tokens = sums
    return {
        "kind": "train",
        "step": step,
        "epoch": epoch,
        "loss": loss / tokens,
        "nll": nll / tokens,
        "ppl": math.exp(min(nll / tokens, 50.0)),
        "lr": lr,
        "grad_norm": norm,
        "tgt_tokens_per_s": tokens / seconds,
    }


class Window:
    """The steps since the last training record: their (loss, NLL, target tokens) sums, kept on
    the device (adding to them never waits for it), and when the window began."""

    def __init__(self, dist: Distributed) -> None:
        self.dist = dist
        self.restart()

    def restart(self) -> None:
        self.sums = torch.zeros(3, dtype=torch.float64, device=self.dist.device)
        self.started = time.perf_counter()

    def add(self, sums: torch.Tensor) -> None:
        self.sums += sums

    def record(self, step: int, epoch: int, lr: float, norm: float) -> dict[str, Any]:
        """The window's record: its sums over every rank (this waits for every rank's device)."""
        sums, seconds = self.dist.sum(self.sums).tolist(), time.perf_counter() - self.started
        return train_record(step, epoch, sums, seconds, lr, norm)


def read_log(run_dir: str | Path) -> list[dict[str, Any]]:
    """The records of a run's ``log.jsonl`` (training windows and validations)."""
    path = Path(run_dir) / LOG_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: is {run_dir} a run directory of fanyi train?")
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines()):
        if line:
            record = _record_or_none(line)
            if record is None:
                raise ValueError(f"{path}:{number + 1}: not a JSON record; delete or mend it")
            records.append(record)
    return records

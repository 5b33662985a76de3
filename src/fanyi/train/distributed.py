"""This process's place in a torchrun job, the collectives the loop needs (no-ops alone), and
the check at start-up that the processes of a job, on one machine or several, agree.

The job itself is joined by the entry point (``fanyi.runtime.training_process``); training only
asks where it stands.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field
from pathlib import Path

import torch
import torch.distributed as torch_dist
from torch import Tensor

from .. import config as config_io
from ..data import Manifest
from .config import TrainConfig

# TrainConfig keys that may differ between the machines of a job (rank 0's out_dir is the run's)
PER_MACHINE_KEYS = frozenset({"data_dir", "out_dir", "threads", "progress"})


@dataclass
class Distributed:
    """Rank ``rank`` of ``world_size`` processes, computing on ``device``."""

    rank: int = 0
    world_size: int = 1
    device: torch.device = field(default_factory=lambda: torch.device("cpu"))

    @classmethod
    def joined(cls, device: torch.device) -> Distributed:
        """As ``torch.distributed`` says: rank 0 of 1 when no job was joined."""
        if not torch_dist.is_initialized():
            return cls(0, 1, device)
        return cls(torch_dist.get_rank(), torch_dist.get_world_size(), device)

    @property
    def main(self) -> bool:
        """Rank 0: the process that validates, logs and writes checkpoints."""
        return self.rank == 0

    def sum(self, tensor: Tensor) -> Tensor:
        """``tensor`` summed over every rank (on this process's device)."""
        tensor = tensor.to(self.device)
        if self.world_size > 1:
            torch_dist.all_reduce(tensor)
        return tensor

    def from_main(self, tensor: Tensor) -> Tensor:
        """Rank 0's ``tensor`` on every rank."""
        tensor = tensor.to(self.device)
        if self.world_size > 1:
            torch_dist.broadcast(tensor, 0)
        return tensor

    def gather(self, tensor: Tensor) -> list[Tensor]:
        """Every rank's ``tensor``, in rank order (on the CPU)."""
        mine = tensor.to(self.device)
        every = [mine]
        if self.world_size > 1:
            every = [torch.empty_like(mine) for _ in range(self.world_size)]
            torch_dist.all_gather(every, mine)
        return [t.cpu() for t in every]

    def gather_text(self, text: str) -> list[str]:
        """Every rank's ``text``, in rank order."""
        mine = torch.tensor(list(text.encode()), dtype=torch.uint8)
        lengths = [int(n) for n in self.gather(torch.tensor([len(mine)]))]
        padded = torch.zeros(max(1, *lengths), dtype=torch.uint8)
        padded[: len(mine)] = mine
        every = self.gather(padded)
        return [bytes(t[:n].tolist()).decode() for t, n in zip(every, lengths, strict=True)]

    def check_same(self, what: str, values: dict[str, str]) -> None:
        """Go on only if every rank has rank 0's ``values``; else raise the same ValueError on
        every rank, naming the ranks, their hosts and the keys that differ."""
        if self.world_size == 1:
            return
        every = [
            json.loads(t) for t in self.gather_text(json.dumps([socket.gethostname(), values]))
        ]
        host, first = every[0]
        differ = [
            f"rank {rank} (on {theirs_host}) has other "
            + ", ".join(sorted(k for k in first.keys() | theirs if first.get(k) != theirs.get(k)))
            for rank, (theirs_host, theirs) in enumerate(every[1:], 1)
            if theirs != first
        ]
        if differ:
            raise ValueError(
                f"the processes of this job disagree on {what}: {'; '.join(differ)} "
                f"than rank 0 (on {host})"
            )


def check_same_job(dist: Distributed, cfg: TrainConfig, manifest: Manifest) -> None:
    """In a job: every rank has rank 0's settings (but for where files are and threads) and
    training data (a shared path or a copy on each machine), which is what its manifest.json
    says it is."""
    if dist.world_size == 1:
        return
    mine = config_io.to_dict(cfg)
    dist.check_same(
        "the training config", {k: repr(v) for k, v in mine.items() if k not in PER_MACHINE_KEYS}
    )
    data_dir = Path(cfg.data_dir)
    found, expected = manifest.training_files_found(data_dir), manifest.training_files()
    listed = {f"{name} in manifest.json": digest for name, digest in expected.items()}
    dist.check_same(f"the training data ({data_dir})", {**found, **listed})
    stale = [name for name, digest in found.items() if digest != expected[name]]
    if stale:
        raise ValueError(
            f"{data_dir}: {', '.join(stale)} differ from the checksums of its manifest.json: "
            "an incomplete or stale copy? Copy the data directory again"
        )

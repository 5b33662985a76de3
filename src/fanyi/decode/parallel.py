"""Several single-thread workers on parts of one batch.

torch releases the GIL inside its kernels, so threads that each decode part of the batch with
one intra-op thread use the cores side by side without talking to each other. On a small,
shared machine this beats one decode with several intra-op threads, whose per-operation
synchronisation costs more than the small matrices of step-wise decoding save.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import torch
from torch import Tensor

from ..model import Transformer
from .config import DecodeConfig
from .hypothesis import Hypothesis

Search = Callable[[Transformer, Tensor, DecodeConfig, int, int], list[list[Hypothesis]]]


def in_parallel(
    search: Search, model: Transformer, src: Tensor, config: DecodeConfig, bos_id: int, eos_id: int
) -> list[list[Hypothesis]]:
    """Run ``search`` on ``config.workers`` near-equal parts of ``src`` at once; results in order."""
    threads = torch.get_num_threads()  # each worker thread must set its own OpenMP count
    parts = [part for part in src.tensor_split(config.workers) if part.size(0)]

    def run(part: Tensor) -> list[list[Hypothesis]]:
        torch.set_num_threads(threads)
        return search(model, part, config, bos_id, eos_id)

    with ThreadPoolExecutor(len(parts)) as pool:
        return [hyps for result in pool.map(run, parts) for hyps in result]

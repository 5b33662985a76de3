"""Collating a training batch on the host: fanyi's (the ids of a batch gathered from the token
shards at once and padded through a mask, ``data/batching.py``) against a copy per row, as
fanyi did before, and ``torch.nn.utils.rnn.pad_sequence``, the way PyTorch pads.

All three make the same three tensors (source + EOS, BOS + target, target + EOS) from the same
batches of a prepared data directory and are checked equal; the figure is milliseconds per
batch, the median of ``--rounds`` passes over ``--batches`` batches, the systems interleaved.
At a GPU's 32k-token batches the host must collate a step in less time than the card trains
it (docs/gpu.md). Ends with one JSON line.

    .venv/bin/python benchmarks/collate.py                 # a Tatoeba slice, 32k-token batches
    .venv/bin/python benchmarks/collate.py --data data/real-zh-en-everyday
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import torch
from torch.nn.utils.rnn import pad_sequence

from common import emit, machine
from fanyi.data import Batch, TokenBatchSampler, load_split
from fanyi.data.batching import MappedDataset
from fanyi.data.vocab import BOS_ID, EOS_ID, PAD_ID
from train_throughput import prepare_slice

Collate = Callable[[MappedDataset, list[int]], tuple[torch.Tensor, ...]]


def row_by_row(data: MappedDataset, indices: list[int]) -> tuple[torch.Tensor, ...]:
    """Lists of ids per example, each row copied into a tensor of padding."""

    def pad(rows: list[list[int]]) -> torch.Tensor:
        out = torch.full((len(rows), max(map(len, rows))), PAD_ID, dtype=torch.long)
        for i, row in enumerate(rows):
            out[i, : len(row)] = torch.as_tensor(row, dtype=torch.long)
        return out

    examples = [data[i] for i in indices]
    return (
        pad([[*s, EOS_ID] for s, _ in examples]),
        pad([[BOS_ID, *t] for _, t in examples]),
        pad([[*t, EOS_ID] for _, t in examples]),
    )


def torch_pad_sequence(data: MappedDataset, indices: list[int]) -> tuple[torch.Tensor, ...]:
    """A tensor per example, as a ``Dataset`` item gives it, padded by ``pad_sequence``."""
    eos, bos = torch.tensor([EOS_ID]), torch.tensor([BOS_ID])
    examples = [data[i] for i in indices]
    sources = [torch.tensor(s, dtype=torch.long) for s, _ in examples]
    targets = [torch.tensor(t, dtype=torch.long) for _, t in examples]

    def pad(rows: list[torch.Tensor]) -> torch.Tensor:
        return pad_sequence(rows, batch_first=True, padding_value=PAD_ID)

    return (
        pad([torch.cat([s, eos]) for s in sources]),
        pad([torch.cat([bos, t]) for t in targets]),
        pad([torch.cat([t, eos]) for t in targets]),
    )


def fanyi(data: MappedDataset, indices: list[int]) -> tuple[torch.Tensor, ...]:
    batch: Batch = data.batch(indices, 0)
    return batch.src, batch.tgt_in, batch.tgt_out


SYSTEMS: dict[str, Collate] = {
    "fanyi": fanyi,
    "row_by_row": row_by_row,
    "torch_pad_sequence": torch_pad_sequence,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="a prepared data directory (default: a Tatoeba slice)")
    parser.add_argument("--lines", type=int, default=20000, help="Tatoeba lines to prepare")
    parser.add_argument("--max-tokens", type=int, default=32768)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(args.data) if args.data else prepare_slice(Path(tmp) / "data", args.lines)
        data = load_split(data_dir, "train")
        sampler = TokenBatchSampler(*data.sizes(), args.max_tokens, seed=1)
        batches = sampler.batches()[: args.batches]
        for indices in batches:  # the same tensors from every system
            made = [collate(data, indices) for collate in SYSTEMS.values()]
            assert all(
                torch.equal(a, b) for other in made[1:] for a, b in zip(made[0], other, strict=True)
            )
        ms: dict[str, list[float]] = {name: [] for name in SYSTEMS}
        for _ in range(args.rounds):
            for name, collate in SYSTEMS.items():
                start = time.perf_counter()
                for indices in batches:
                    collate(data, indices)
                ms[name].append((time.perf_counter() - start) / len(batches) * 1e3)
    median = {name: statistics.median(times) for name, times in ms.items()}
    rows = statistics.mean(len(b) for b in batches)
    for name, value in median.items():
        print(
            f"{name:>20}: {value:7.2f} ms per batch ({median[name] / median['fanyi']:.1f}x fanyi's)"
        )
    emit(
        {
            "benchmark": "collate",
            "machine": machine(),
            "data": str(args.data or f"tatoeba first {args.lines} lines"),
            "max_tokens": args.max_tokens,
            "rows_per_batch": round(rows, 1),
            "ms_per_batch": {name: round(value, 3) for name, value in median.items()},
            "speedup_vs_row_by_row": round(median["row_by_row"] / median["fanyi"], 2),
            "speedup_vs_pad_sequence": round(median["torch_pad_sequence"] / median["fanyi"], 2),
        }
    )


if __name__ == "__main__":
    main()

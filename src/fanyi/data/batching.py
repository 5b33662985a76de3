"""Token-bucket batching: id sequences → padded ``Batch`` tensors of bounded size.

Conventions shared with the model and the decoder: the source is ``ids + [eos]``; the decoder
reads ``tgt_in = [bos] + ids`` and is trained to predict ``tgt_out = ids + [eos]``; everything
is right-padded with ``pad`` (id 0). An example's *size* is the length of those tensors
(``len(ids) + 1``), and a batch costs ``batch_len × max(src size, tgt size)`` tokens.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import Dataset

from .manifest import SIDES, read_manifest
from .shards import TokenShards, read_shard_index
from .vocab import BOS_ID, EOS_ID, PAD_ID, Vocab

_NO_IDS = np.zeros(0, dtype=np.int64)
Example = tuple[list[int], list[int]]  # (source ids, target ids), without specials
Earlier = tuple[tuple[int, int], ...]  # (ranks, batches each took) that began an epoch, in turn


@dataclass
class Batch:
    """One training batch; ``ntokens`` counts the non-pad positions of ``tgt_out``."""

    src: torch.Tensor  # b x s
    tgt_in: torch.Tensor  # b x t, starts with bos
    tgt_out: torch.Tensor  # b x t, ends with eos
    ntokens: int

    def to(self, device: torch.device | str, non_blocking: bool = False) -> Batch:
        """This batch on ``device``. With ``non_blocking`` a copy from pinned host memory does
        not wait for the device; any other copy waits (its result may be read at once)."""
        src, tgt_in, tgt_out = (
            t.to(device, non_blocking=non_blocking and t.is_pinned())
            for t in (self.src, self.tgt_in, self.tgt_out)
        )
        return Batch(src, tgt_in, tgt_out, self.ntokens)

    def pin_memory(self) -> Batch:
        """This batch in page-locked host memory (CUDA), which a copy to the GPU need not wait on."""
        return Batch(
            self.src.pin_memory(), self.tgt_in.pin_memory(), self.tgt_out.pin_memory(), self.ntokens
        )


# Decoding pads a batch to a multiple of this many positions: a CPU's vectorised sums over them
# (softmax, weights x values, a row's total) then add a row's own terms in the same order whatever
# the batch's longest row, so that a line's translation and scores are bitwise the same alone and
# in any batch, in int8 and bf16 too (tests/system/test_batch_invariance.py)
WIDTH_STEP = 16


def widened(rows: torch.Tensor, pad_id: int) -> torch.Tensor:
    """``rows`` (b x t) right-padded with ``pad_id`` to a multiple of WIDTH_STEP columns."""
    return torch.nn.functional.pad(rows, (0, -rows.size(1) % WIDTH_STEP), value=pad_id)


def pad_rows(
    rows: Sequence[Sequence[int]], pad_id: int, start: int | None = None, end: int | None = None
) -> torch.Tensor:
    """Right-pad ``rows`` (lists or arrays of ids) into a (len(rows) x longest) long tensor, each
    row preceded by ``start`` and followed by ``end`` where given."""
    return pad_flat(*concatenated(rows), pad_id, start, end)


def concatenated(rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """The ids of ``rows`` in one int64 array, and the length of each row."""
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    return np.concatenate([np.asarray(row, dtype=np.int64) for row in rows] or [_NO_IDS]), lengths


def pad_flat(
    flat: np.ndarray, lengths: np.ndarray, pad_id: int, start: int | None, end: int | None
) -> torch.Tensor:
    """:func:`pad_rows` of rows given concatenated (``flat``) with their ``lengths``.

    Vectorised: the ids are scattered through a mask, so a batch of 32k tokens in ~2,000 rows
    pads in a fraction of a millisecond where a copy per row took tens (the host fed a GPU
    slower than it trained, docs/gpu.md; ``benchmarks/collate.py``).
    """
    first = int(start is not None)
    width = int(lengths.max(initial=0)) + first + int(end is not None)
    out = np.full((len(lengths), width), pad_id, dtype=np.int64)
    columns = np.arange(width)
    out[(columns >= first) & (columns < lengths[:, None] + first)] = flat
    if start is not None:
        out[:, 0] = start
    if end is not None:
        out[np.arange(len(lengths)), lengths + first] = end
    return torch.from_numpy(out)


def token_batches(order: list[int], lengths: list[int], batch_tokens: int) -> list[list[int]]:
    """Cut ``order`` (sorted by length) into batches of ≤ ``batch_tokens`` padded tokens
    (a source too long for any batch goes alone)."""
    batches: list[list[int]] = []
    for i in order:
        if batches and (len(batches[-1]) + 1) * lengths[i] <= batch_tokens:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


def collate(
    examples: Sequence[tuple[Sequence[int], Sequence[int]]],
    pad_id: int = PAD_ID,
    bos_id: int = BOS_ID,
    eos_id: int = EOS_ID,
) -> Batch:
    """Add bos/eos, pad and stack a list of (source ids, target ids)."""
    sources = pad_rows([s for s, _ in examples], pad_id, end=eos_id)
    return _batch(sources, *concatenated([t for _, t in examples]), pad_id, bos_id, eos_id)


def _batch(
    src: torch.Tensor, flat: np.ndarray, lengths: np.ndarray, pad: int, bos: int, eos: int
) -> Batch:
    """A batch of padded sources ``src`` and targets given as concatenated ids."""
    tgt_in = pad_flat(flat, lengths, pad, bos, None)
    tgt_out = pad_flat(flat, lengths, pad, None, eos)
    return Batch(src, tgt_in, tgt_out, int((tgt_out != pad).sum()))


class ParallelDataset(Dataset):
    """A split's ids, source and target; item i is (source ids, target ids)."""

    def __init__(self, src: Sequence[list[int]], tgt: Sequence[list[int]]) -> None:
        if len(src) != len(tgt):
            raise ValueError(f"{len(src)} sources but {len(tgt)} targets")
        self.src, self.tgt = src, tgt

    def __len__(self) -> int:
        return len(self.src)

    def __getitem__(self, i: int) -> Example:
        return self.src[i], self.tgt[i]

    def examples(self, indices: Sequence[int], epoch: int) -> list[Example]:
        """The examples of one batch of ``epoch``: the same ids in every epoch here (a
        :class:`~fanyi.data.regularization.SampledSegmentations` draws new ones)."""
        return [self[i] for i in indices]

    def batch(self, indices: Sequence[int], epoch: int) -> Batch:
        """The padded batch of the examples ``indices`` in ``epoch``."""
        return collate(self.examples(indices, epoch))

    def sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """Source and target tensor lengths (ids + eos, bos + ids) of every example."""
        return (
            np.array([len(s) + 1 for s in self.src], dtype=np.int64),
            np.array([len(t) + 1 for t in self.tgt], dtype=np.int64),
        )


def load_vocabs(data_dir: str | Path) -> tuple[Vocab, Vocab]:
    """The (source, target) vocabularies of a prepared data directory (the same if joint)."""
    data_dir = Path(data_dir)
    vocab = read_manifest(data_dir).vocab
    src = Vocab(data_dir / vocab.src_model)
    return src, src if vocab.joint else Vocab(data_dir / vocab.tgt_model)


class MappedDataset(ParallelDataset):
    """A prepared split's token shards, memory-mapped: opening it reads nothing, an example is
    read when asked for, and the processes of a machine share one copy in the page cache."""

    src: TokenShards
    tgt: TokenShards

    def sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """Source and target tensor lengths of every example, from the shards' offsets alone."""
        return self.src.lengths() + 1, self.tgt.lengths() + 1

    def batch(self, indices: Sequence[int], epoch: int) -> Batch:
        """The padded batch of ``indices``, gathered from the shards at once (no lists)."""
        src = pad_flat(*self.src.gather(indices), PAD_ID, None, EOS_ID)
        return _batch(src, *self.tgt.gather(indices), PAD_ID, BOS_ID, EOS_ID)


def load_split(
    data_dir: str | Path, split: str, vocabs: tuple[Vocab, Vocab] | None = None
) -> MappedDataset:
    """``split`` (train, dev or test) of a prepared data directory: the ids ``fanyi prepare``
    encoded (:mod:`fanyi.data.shards`). ``vocabs``, if given, must be the directory's own."""
    data_dir = Path(data_dir)
    index, manifest = read_shard_index(data_dir), read_manifest(data_dir)
    if vocabs is not None:
        sizes = (len(vocabs[0]), len(vocabs[1]))
        if sizes != (manifest.vocab.src_size, manifest.vocab.tgt_size):
            raise ValueError(f"vocabularies of sizes {sizes} are not those of {data_dir}")
    src, tgt = (TokenShards(data_dir, index, split, side) for side in SIDES)
    return MappedDataset(src, tgt)


class TokenBatchSampler:
    """Batches of example indices holding at most ``max_tokens`` padded tokens each.

    Examples are sorted by size, then source size, then target size (remaining ties broken at
    random per epoch; the two inner keys cut padding about 3x on Tatoeba) and cut greedily into
    batches, so lengths within a batch are close and padding stays low; the batch order is then
    shuffled. An example larger than ``max_tokens`` on its own gets a batch of its own (it is
    never dropped: every example appears exactly once per epoch). With ``world_size`` > 1 the
    largest batches are halved until the count divides evenly, and rank r takes every
    ``world_size``-th batch from r: ranks get equal numbers of disjoint batches covering all.
    The order depends only on ``seed`` and the epoch given to :meth:`set_epoch`, and on the
    earlier numbers of ranks of an epoch that a resumed run continues on another number.
    """

    def __init__(
        self,
        src_sizes: Sequence[int] | np.ndarray,
        tgt_sizes: Sequence[int] | np.ndarray,
        max_tokens: int,
        seed: int = 0,
        shuffle: bool = True,
        rank: int = 0,
        world_size: int = 1,
    ) -> None:
        if not 0 <= rank < world_size:
            raise ValueError(f"rank {rank} is not in [0, {world_size})")
        self.src_sizes, self.tgt_sizes = _narrow(src_sizes), _narrow(tgt_sizes)
        self.sizes = np.maximum(self.src_sizes, self.tgt_sizes)
        if len(self.sizes) < world_size:
            raise ValueError(f"{len(self.sizes)} examples cannot feed {world_size} ranks")
        self.max_tokens, self.seed, self.shuffle = max_tokens, seed, shuffle
        self.rank, self.world_size, self.epoch = rank, world_size, 0
        self.earlier: Earlier = ()
        self._cached: tuple[tuple[int, Earlier], list[np.ndarray]] | None = None

    def set_epoch(self, epoch: int, earlier: Sequence[tuple[int, int]] = ()) -> None:
        """Choose the epoch whose order ``__iter__`` yields (as DistributedSampler does).

        ``earlier``: for an epoch begun by other numbers of ranks (a run resumed on another
        number of processes), the (ranks, batches each took) of each, in turn; only the batches
        they left are yielded, shared anew by this sampler's ranks.
        """
        self.epoch, self.earlier = epoch, tuple((int(w), int(n)) for w, n in earlier)

    def __iter__(self) -> Iterator[list[int]]:
        return (batch.tolist() for batch in self._batches()[self.rank :: self.world_size])

    def __len__(self) -> int:
        return len(self._batches()) // self.world_size

    def batches(self) -> list[list[int]]:
        """All ranks' batches of the current epoch, in order."""
        return [batch.tolist() for batch in self._batches()]

    def _batches(self) -> list[np.ndarray]:
        """:meth:`batches` as index arrays, computed once per epoch (8 bytes an example, where
        lists of ints would take 36: millions of examples are batched in every rank)."""
        key = (self.epoch, self.earlier)
        if self._cached is None or self._cached[0] != key:
            self._cached = (key, self._remaining_batches())
        return self._cached[1]

    def _remaining_batches(self) -> list[np.ndarray]:
        """The epoch's batches as its first ranks shared them, less those taken by each
        earlier number of ranks, evened out anew for the next."""
        world_sizes = [w for w, _ in self.earlier] + [self.world_size]
        batches = self._make_batches(world_sizes[0])
        for (world_size, taken), then in zip(self.earlier, world_sizes[1:], strict=True):
            left = batches[world_size * taken :]
            try:
                batches = _even_out(left, then)
            except ValueError:
                raise ValueError(
                    f"the {sum(map(len, left))} examples left of epoch {self.epoch} cannot be "
                    f"shared by {then} ranks; resume on fewer processes"
                ) from None
        return batches

    def _make_batches(self, world_size: int) -> list[np.ndarray]:
        rng = np.random.default_rng([self.seed, self.epoch])
        order = rng.permutation(len(self.sizes)) if self.shuffle else np.arange(len(self.sizes))
        for key in (self.tgt_sizes, self.src_sizes, self.sizes):  # least significant first
            order = order[np.argsort(key[order], kind="stable")]  # radix sort when 16-bit
        batches = _even_out(self._cut(order), world_size)
        if self.shuffle:
            batches = [batches[i] for i in rng.permutation(len(batches))]
        return batches

    def _cut(self, order: np.ndarray) -> list[np.ndarray]:
        """Greedy cut of size-sorted indices into batches within ``max_tokens``.

        Sizes never decrease along ``order``, so a batch's longest example is its last: from
        its first example a batch takes examples while (their count) × (the last's size) fits,
        and at most ``max_tokens // size`` of the first's size can. Each cut is found over that
        window at once (an example too large alone still gets a batch)."""
        sizes = self.sizes[order].astype(np.int64)
        bounds, start = [0], 0
        while start < len(sizes):
            window = sizes[start : start + self.max_tokens // int(sizes[start]) + 1]
            fits = np.arange(1, len(window) + 1) * window <= self.max_tokens
            start += max(1, len(window) if fits.all() else int(np.argmin(fits)))
            bounds.append(start)
        return [order[a:b] for a, b in pairwise(bounds)]


def _narrow(sizes: Sequence[int] | np.ndarray) -> np.ndarray:
    """``sizes`` as 16-bit integers when they fit: a stable sort of those is a radix sort."""
    sizes = np.asarray(sizes)
    fits = len(sizes) and sizes.min() >= 0 and sizes.max() < 2**16
    return sizes.astype(np.uint16) if fits else sizes


def _even_out(batches: list[np.ndarray], world_size: int) -> list[np.ndarray]:
    """Halve the batches with most examples until their count is a multiple of world_size."""
    while len(batches) % world_size:
        largest = max(range(len(batches)), key=lambda i: len(batches[i]))
        if len(batches[largest]) < 2:
            raise ValueError(
                f"{len(batches)} one-example batches cannot be shared evenly by "
                f"{world_size} ranks; raise max_tokens"
            )
        batch = batches.pop(largest)
        half = len(batch) // 2
        batches[largest:largest] = [batch[:half], batch[half:]]
    return batches


def padding_fraction(
    batches: Sequence[Sequence[int]], src_sizes: Sequence[int], tgt_sizes: Sequence[int]
) -> float:
    """Share of padding in the source and target tensors of ``batches``."""
    padded = real = 0
    for batch in batches:
        for sizes in (src_sizes, tgt_sizes):
            lengths = [int(sizes[i]) for i in batch]
            padded += len(lengths) * max(lengths)
            real += sum(lengths)
    return 1 - real / padded if padded else 0.0

"""The copy task's data, training and greedy decoding."""

from __future__ import annotations

import time
from collections.abc import Callable

import torch
from torch import Tensor

from ..data import Batch
from ..decode import greedy_search
from ..model import ModelConfig, Transformer, build_model
from ..train import LabelSmoothingLoss, StepSettings, TrainContext, train_step
from ..train.distributed import Distributed
from ..train.step import adam
from .config import CopyTaskConfig

PAD, BOS, EOS = 0, 1, 2
FIRST_SYMBOL = 3  # symbols are ids FIRST_SYMBOL … vocab_size − 1


def random_batch(cfg: CopyTaskConfig, batch_size: int, generator: torch.Generator) -> Tensor:
    """Random symbol sequences of random lengths, padded: batch_size x max_len."""
    lengths = torch.randint(cfg.min_len, cfg.max_len + 1, (batch_size,), generator=generator)
    symbols = torch.randint(
        FIRST_SYMBOL, FIRST_SYMBOL + cfg.symbols, (batch_size, cfg.max_len), generator=generator
    )
    positions = torch.arange(cfg.max_len)[None, :]
    return symbols.masked_fill(positions >= lengths[:, None], PAD)


def copy_batch(src: Tensor) -> Batch:
    """``src`` with the decoder's input (BOS + sequence) and output (sequence + EOS) to copy it."""
    lengths = (src != PAD).sum(1)
    padded = torch.cat([src, torch.full_like(src[:, :1], PAD)], dim=1)
    tgt_out = padded.scatter(1, lengths[:, None], EOS)
    tgt_in = torch.cat([torch.full_like(src[:, :1], BOS), src], dim=1)
    return Batch(src, tgt_in, tgt_out, int((tgt_out != PAD).sum()))


def train_copy_model(
    cfg: CopyTaskConfig, on_step: Callable[[int, float], None] | None = None
) -> Transformer:
    """Train a small Transformer on the copy task; ``on_step(step, loss)`` reports progress."""
    torch.manual_seed(cfg.seed)
    vocab = FIRST_SYMBOL + cfg.symbols
    model = build_model(
        ModelConfig(
            src_vocab_size=vocab,
            tgt_vocab_size=vocab,
            d_model=cfg.d_model,
            d_ff=cfg.d_ff,
            h=cfg.h,
            N_enc=cfg.N,
            N_dec=cfg.N,
            dropout=0.0,
            max_len=cfg.max_len + 2,
            pad_id=PAD,
        )
    )
    settings = StepSettings(cfg.d_model, cfg.warmup, cfg.lr_factor, cfg.clip_norm)
    criterion = LabelSmoothingLoss(cfg.label_smoothing, PAD)
    ctx = TrainContext(model, adam(model.parameters()), criterion, settings, Distributed())
    generator = torch.Generator().manual_seed(cfg.seed)
    model.train()
    for step in range(1, cfg.steps + 1):
        batch = copy_batch(random_batch(cfg, cfg.batch_size, generator))
        result = train_step(ctx, [batch], step)
        if on_step is not None:
            on_step(step, result.loss / result.tokens)
    return model.eval()


def exact_match_rate(model: Transformer, cfg: CopyTaskConfig, n: int, seed: int) -> float:
    """Fraction of ``n`` fresh random sequences that greedy decoding copies exactly."""
    src = random_batch(cfg, n, torch.Generator().manual_seed(seed))
    outputs = greedy_search(model, src, BOS, EOS, max_len=cfg.max_len + 1)
    expected = [[t for t in row if t != PAD] for row in src.tolist()]
    return sum(o == e for o, e in zip(outputs, expected, strict=True)) / n


def run_demo(cfg: CopyTaskConfig, show: int = 5) -> float:
    """Train, print a few decoded examples and the held-out exact-match rate; return the rate."""
    from tqdm import tqdm

    start = time.perf_counter()
    with tqdm(total=cfg.steps, desc="copy task", unit="step", mininterval=0.5) as bar:

        def report(step: int, loss: float) -> None:
            bar.update()
            bar.set_postfix(loss=f"{loss:.3f}")

        model = train_copy_model(cfg, report)
    src = random_batch(cfg, show, torch.Generator().manual_seed(cfg.seed + 1))
    for row, out in zip(
        src.tolist(), greedy_search(model, src, BOS, EOS, cfg.max_len + 1), strict=True
    ):
        print(
            "source:",
            " ".join(str(t) for t in row if t != PAD),
            "→ decoded:",
            " ".join(map(str, out)),
        )
    rate = exact_match_rate(model, cfg, 1000, seed=cfg.seed + 2)
    print(
        f"held-out exact copies: {rate:.1%} of 1000 "
        f"({time.perf_counter() - start:.0f} s, {torch.get_num_threads()} threads)"
    )
    return rate

"""Training-step throughput: fanyi vs torch.nn.Transformer, fp32 and bf16 autocast, on the CPU.

Both models have the same configuration, the same embeddings, output projection, loss and Adam,
and see the same batches (~4k target tokens, random lengths so there is padding); runs are
interleaved so machine noise falls on both. A step is ``fanyi.train.train_step``, the step of
``fanyi train``: forward + backward, the Noam rate, gradient clipping, Adam.

    .venv/bin/python benchmarks/train_step.py [--threads 2] [--rounds 5] [--configs tiny,base-small]
"""

from __future__ import annotations

import argparse
import itertools
import math

import torch
from torch import Tensor, nn

from common import emit, interleaved, machine
from fanyi.data import Batch
from fanyi.model import ModelConfig, build_model
from fanyi.model.embedding import sinusoid_table
from fanyi.runtime import set_threads
from fanyi.train import LabelSmoothingLoss, StepSettings, TrainContext, train_step
from fanyi.train.distributed import Distributed
from fanyi.train.step import adam

CONFIGS = {
    "tiny": dict(
        d_model=256, d_ff=1024, h=4, N_enc=3, N_dec=3, src_vocab_size=8000, tgt_vocab_size=8000
    ),
    "base-small": dict(
        d_model=512, d_ff=2048, h=8, N_enc=6, N_dec=6, src_vocab_size=16000, tgt_vocab_size=16000
    ),
}
PAD = 0


class TorchSeq2Seq(nn.Module):
    """The tutorial way: embeddings + sinusoids around torch.nn.Transformer, then a linear map."""

    def __init__(self, c: ModelConfig) -> None:
        super().__init__()
        self.src_embed = nn.Embedding(c.src_vocab_size, c.d_model, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(c.tgt_vocab_size, c.d_model, padding_idx=PAD)
        self.register_buffer("pe", sinusoid_table(c.max_len, c.d_model))
        self.transformer = nn.Transformer(
            c.d_model, c.h, c.N_enc, c.N_dec, c.d_ff, c.dropout, batch_first=True
        )
        self.proj = nn.Linear(c.d_model, c.tgt_vocab_size)
        self.scale = math.sqrt(c.d_model)
        self.drop = nn.Dropout(c.dropout)

    def forward(self, src: Tensor, tgt: Tensor) -> Tensor:
        x = self.drop(self.src_embed(src) * self.scale + self.pe[: src.size(1)])
        y = self.drop(self.tgt_embed(tgt) * self.scale + self.pe[: tgt.size(1)])
        causal = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        out = self.transformer(
            x,
            y,
            tgt_mask=causal,
            src_key_padding_mask=src == PAD,
            tgt_key_padding_mask=tgt == PAD,
            memory_key_padding_mask=src == PAD,
        )
        return self.proj(out).log_softmax(-1)


def random_batches(c: ModelConfig, n: int, target_tokens: int, seed: int) -> list[Batch]:
    """Batches of random sentences of 16–32 tokens, padded, about ``target_tokens`` each."""
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n):
        size = target_tokens // 24
        lengths = torch.randint(16, 33, (size,), generator=g)
        src = torch.randint(4, c.src_vocab_size, (size, 32), generator=g)
        tgt = torch.randint(4, c.tgt_vocab_size, (size, 33), generator=g)
        pos = torch.arange(33)
        tgt = tgt.masked_fill(pos[None] > lengths[:, None], PAD)
        src = src.masked_fill(pos[None, :32] >= (lengths[:, None] + 1) % 33, PAD)
        src[:, 0] = torch.randint(4, c.src_vocab_size, (size,), generator=g)
        tgt_out = tgt[:, 1:]
        batches.append(Batch(src, tgt[:, :-1], tgt_out, int((tgt_out != PAD).sum())))
    return batches


def step_fn(model: nn.Module, batches: list[Batch], dtype: torch.dtype | None, d_model: int):
    """One call: the next training step of ``model`` (``fanyi.train.train_step``) on the next batch.
    The torch peer runs through the same step: a step needs only the model's forward(src, tgt_in)
    and its parameters."""
    settings = StepSettings(d_model, warmup=4000, clip_norm=1.0)
    ctx = TrainContext(
        model,
        adam(model.parameters()),
        LabelSmoothingLoss(0.1, PAD),
        settings,
        Distributed(),
        "bf16" if dtype == torch.bfloat16 else "fp32",
    )
    steps = itertools.count(1)

    def step() -> None:
        n = next(steps)
        train_step(ctx, [batches[(n - 1) % len(batches)]], n)

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--target-tokens", type=int, default=4096)
    parser.add_argument("--configs", default="tiny,base-small")
    args = parser.parse_args()
    set_threads(args.threads)
    result = {
        "benchmark": "train_step",
        "machine": machine(),
        "threads": args.threads,
        "rounds": args.rounds,
        "target_tokens_per_batch": args.target_tokens,
        "configs": {},
    }
    for name in args.configs.split(","):
        c = ModelConfig(**CONFIGS[name], dropout=0.1)
        batches = random_batches(c, 4, args.target_tokens, seed=0)
        tokens = sum(b.ntokens for b in batches) / len(batches)
        torch.manual_seed(0)
        runs = {}
        for dtype_name, dtype in (("fp32", None), ("bf16", torch.bfloat16)):
            runs[f"fanyi_{dtype_name}"] = step_fn(build_model(c).train(), batches, dtype, c.d_model)
            runs[f"torch_{dtype_name}"] = step_fn(
                TorchSeq2Seq(c).train(), batches, dtype, c.d_model
            )
        seconds = interleaved(runs, args.rounds)
        tps = {k: tokens / s for k, s in seconds.items()}
        figures = {
            "target_tokens_per_s": {k: round(v) for k, v in tps.items()},
            "fanyi_vs_torch_fp32": round(tps["fanyi_fp32"] / tps["torch_fp32"], 3),
            "fanyi_vs_torch_bf16": round(tps["fanyi_bf16"] / tps["torch_bf16"], 3),
            "fanyi_bf16_vs_fp32": round(tps["fanyi_bf16"] / tps["fanyi_fp32"], 3),
            "torch_bf16_vs_fp32": round(tps["torch_bf16"] / tps["torch_fp32"], 3),
            "mean_target_tokens": round(tokens),
        }
        result["configs"][name] = figures
        print(f"{name}: " + ", ".join(f"{k} {v:,.0f} tok/s" for k, v in tps.items()))
        print(
            f"{name}: fanyi/torch fp32 {figures['fanyi_vs_torch_fp32']:.2f}×, "
            f"bf16 {figures['fanyi_vs_torch_bf16']:.2f}×; fanyi bf16/fp32 "
            f"{figures['fanyi_bf16_vs_fp32']:.2f}×",
            flush=True,
        )
    emit(result)


if __name__ == "__main__":
    main()

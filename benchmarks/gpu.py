"""Training throughput on a device: fanyi's training step (forward, backward, Adam; bf16 autocast
where the device computes bf16 natively) on synthetic token batches, target tokens/s and model
FLOPs utilisation (MFU) at the bundled size (d256, 3+3, 8k vocabulary) and transformer-base
(d512, 6+6, 32k), at several batch sizes, with the GPU's busy share sampled by nvidia-smi;
beside it, on the same batches, shapes and device, a plain ``torch.nn.Transformer`` training
loop and Hugging Face ``MarianMTModel`` training (the peers below), each with Adam and the same
autocast. Ends with one JSON line (decoding: ``gpu_decode.py``).

    python benchmarks/gpu.py --device cuda                      # scripts/gpu-check.sh runs this
    python benchmarks/gpu.py --device cpu --sizes bundled --tokens 512 --steps 2   # a smoke run
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable

import torch
from torch import Tensor, nn
from torch.nn import functional as F

from fanyi.data.batching import Batch
from fanyi.device import resolve_device
from fanyi.model import ModelConfig, build_model
from fanyi.precision import bf16_native
from fanyi.train.context import TrainContext
from fanyi.train.distributed import Distributed
from fanyi.train.loss import LabelSmoothingLoss
from fanyi.train.step import StepSettings, adam, train_step

SIZES = {
    "bundled": {"d_model": 256, "d_ff": 1024, "h": 4, "N_enc": 3, "N_dec": 3, "vocab": 8000},
    "base": {"d_model": 512, "d_ff": 2048, "h": 8, "N_enc": 6, "N_dec": 6, "vocab": 32000},
}
PEAK_TFLOPS = {"H100": 989.0, "H200": 989.0, "A100": 312.0}  # dense bf16, by card name
LENGTH = 32  # tokens per sentence, both sides


# the peers --------------------------------------------------------------------------------------
# The training loops a user would otherwise write, on the shapes fanyi trains (d_model, h, d_ff,
# layers, shared vocabulary). ``torch``: embeddings with sinusoids, ``torch.nn.Transformer``
# (post-norm, ReLU, dropout 0.1, its fast paths as PyTorch picks them), an output projection,
# cross-entropy with label smoothing 0.1, Adam, gradient clipping: the loop of PyTorch's own
# tutorials. ``marian``: Hugging Face ``MarianMTModel`` with the same sizes, its loss from
# ``labels``. Each step function takes (src, tgt_in, tgt_out) and returns the loss tensor, unread.
Step = Callable[[Tensor, Tensor, Tensor], Tensor]


class TorchTransformer(nn.Module):
    """Embeddings · √d + sinusoids → ``nn.Transformer`` → a linear map to the vocabulary."""

    def __init__(self, d_model: int, d_ff: int, h: int, n_enc: int, n_dec: int, vocab: int):
        super().__init__()
        self.d_model = d_model
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.transformer = nn.Transformer(
            d_model, h, n_enc, n_dec, d_ff, dropout=0.1, batch_first=True
        )
        self.out = nn.Linear(d_model, vocab)
        position = torch.arange(512)[:, None]
        rate = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        table = torch.zeros(512, d_model)
        table[:, 0::2], table[:, 1::2] = torch.sin(position * rate), torch.cos(position * rate)
        self.register_buffer("sinusoids", table)

    def embedded(self, ids: Tensor) -> Tensor:
        return self.embed(ids) * math.sqrt(self.d_model) + self.sinusoids[: ids.size(1)]

    def forward(self, src: Tensor, tgt_in: Tensor) -> Tensor:
        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1), device=src.device)
        hidden = self.transformer(
            self.embedded(src),
            self.embedded(tgt_in),
            tgt_mask=causal,
            src_key_padding_mask=src == 0,
            memory_key_padding_mask=src == 0,
            tgt_is_causal=True,
        )
        return self.out(hidden)


def peer_adam(model: nn.Module) -> torch.optim.Adam:
    """The peers' optimizer: PyTorch's default Adam (foreach), §5.3's betas and epsilon."""
    return torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)


def learn(model: nn.Module, optimizer: torch.optim.Optimizer, loss: Tensor) -> Tensor:
    """Backpropagate ``loss``, clip the gradient to norm 1, update; the loss, unread."""
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return loss.detach()


def torch_step(shape: dict, vocab: int, device: torch.device, autocast) -> Step:
    model = TorchTransformer(
        shape["d_model"], shape["d_ff"], shape["h"], shape["N_enc"], shape["N_dec"], vocab
    ).to(device)
    optimizer = peer_adam(model)

    def step(src: Tensor, tgt_in: Tensor, tgt_out: Tensor) -> Tensor:
        with autocast:
            logits = model(src, tgt_in)
        loss = F.cross_entropy(
            logits.float().flatten(0, 1), tgt_out.flatten(), ignore_index=0, label_smoothing=0.1
        )
        return learn(model, optimizer, loss)

    model.train()
    return step


def marian_step(shape: dict, vocab: int, device: torch.device, autocast) -> Step:
    from transformers import MarianConfig, MarianMTModel

    config = MarianConfig(
        vocab_size=vocab,
        d_model=shape["d_model"],
        encoder_layers=shape["N_enc"],
        decoder_layers=shape["N_dec"],
        encoder_attention_heads=shape["h"],
        decoder_attention_heads=shape["h"],
        encoder_ffn_dim=shape["d_ff"],
        decoder_ffn_dim=shape["d_ff"],
        max_position_embeddings=512,
        pad_token_id=0,
        decoder_start_token_id=2,
        dropout=0.1,
    )
    model = MarianMTModel(config).to(device)
    optimizer = peer_adam(model)

    def step(src: Tensor, tgt_in: Tensor, tgt_out: Tensor) -> Tensor:
        with autocast:
            loss = model(
                input_ids=src, attention_mask=src != 0, decoder_input_ids=tgt_in, labels=tgt_out
            ).loss
        return learn(model, optimizer, loss)

    model.train()
    return step


PEERS = {"torch": torch_step, "marian": marian_step}


# fanyi --------------------------------------------------------------------------------------------
def batch(vocab: int, tokens: int, device: torch.device, length: int = LENGTH) -> Batch:
    """Random sentences of ``length`` ids, ``tokens`` target tokens in all."""
    rows = max(1, tokens // length)
    ids = torch.randint(4, vocab, (rows, length + 1), device=device)
    src, tgt_in, tgt_out = ids[:, 1:].contiguous(), ids[:, :-1].contiguous(), ids[:, 1:].clone()
    return Batch(src, tgt_in, tgt_out, rows * length)


def batches(vocab: int, tokens: int, device: torch.device, count: int, varied: bool) -> list:
    """``count`` batches: 4 shapes repeated, or (``varied``) a new sentence length at every
    step (8 to 64 ids, about ``tokens`` each), as the first epoch of real token batches gives:
    the shapes no cache of the device has seen yet."""
    if not varied:
        return [batch(vocab, tokens, device) for _ in range(4)] * (count // 4 + 1)
    return [batch(vocab, tokens, device, 8 + (7 * i) % 57) for i in range(count)]


def flops_per_step(size: str, tokens: int) -> float:
    """The model FLOPs of a step, from the shape alone (the same for every system): 6 per weight
    of a matrix product and token, forward and backward (Kaplan et al. 2020), over an encoder
    layer's 4d² + 2d·d_ff, a decoder layer's 8d² + 2d·d_ff and the output projection's d·V
    (sources as long as targets here); embedding lookups and attention's quadratic part (32
    tokens) left out."""
    s = SIZES[size]
    d, d_ff = s["d_model"], s["d_ff"]
    encoder = s["N_enc"] * (4 * d * d + 2 * d * d_ff)
    decoder = s["N_dec"] * (8 * d * d + 2 * d * d_ff)
    return 6.0 * (encoder + decoder + d * s["vocab"]) * tokens


def fanyi_step(size: str, device: torch.device, autocast, fused: bool, compiled: bool) -> Step:
    """fanyi's model and ``train_step`` (fused Adam on a GPU unless not ``fused``; the model
    under ``torch.compile`` when ``compiled``)."""
    shape = dict(SIZES[size])
    vocab = shape.pop("vocab")
    config = ModelConfig(src_vocab_size=vocab, tgt_vocab_size=vocab, max_len=256, **shape)
    model = build_model(config).to(device).train()
    optimizer = (  # fanyi's Adam is fused on a GPU; the lever: the same Adam, foreach
        adam(model.parameters())
        if fused
        else torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9)
    )
    criterion, settings = LabelSmoothingLoss(0.1, config.pad_id), StepSettings(config.d_model, 4000)
    dtype = "bf16" if bf16_native(device) else "fp32"  # where measure's autocast is on
    forward = torch.compile(model) if compiled else None
    ctx = TrainContext(
        model, optimizer, criterion, settings, Distributed(device=device), dtype, forward
    )
    count = itertools.count(1)

    def step(src: torch.Tensor, tgt_in: torch.Tensor, tgt_out: torch.Tensor) -> torch.Tensor:
        batch = Batch(src, tgt_in, tgt_out, tgt_out.numel())
        result = train_step(ctx, [batch], next(count))
        return result.sums

    return step


def measure(
    system: str, size: str, tokens: int, steps: int, device: torch.device, options: dict
) -> dict:
    """Target tokens/s of ``steps`` timed steps after 5 warm-up ones (``read_each_step``: the
    loss read on the host after every step, as a loop that prints it would; ``varied``: a
    new batch shape at every step)."""
    bf16 = bf16_native(device)
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16)
    shape, vocab = SIZES[size], SIZES[size]["vocab"]
    if system.startswith("fanyi"):
        step = fanyi_step(size, device, autocast, "unfused" not in system, "compile" in system)
    else:
        step = PEERS[system](shape, vocab, device, autocast)
    stream, ntokens = batches(vocab, tokens, device, 6 + steps, options["varied"]), 0
    for i in range(1, 6 + steps):
        if i == 6:
            synchronize(device)
            start, ntokens = time.perf_counter(), 0
        b = stream[i]
        loss = step(b.src, b.tgt_in, b.tgt_out)
        if options["read_each_step"]:
            loss.sum().item()
        ntokens += b.ntokens if i >= 6 else 0
    synchronize(device)
    seconds = (time.perf_counter() - start) / steps
    ntokens //= steps
    lever = [name.replace("_", "-") for name, on in options.items() if on]
    return {
        "system": " ".join([system, *lever]),
        "size": size,
        "batch_tokens": tokens,
        "dtype": "bf16" if bf16 else "fp32",
        "tgt_tokens_per_s": round(ntokens / seconds),
        "tflops": float(f"{flops_per_step(size, ntokens) / seconds / 1e12:.4g}"),  # 4 digits
    }


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


@contextlib.contextmanager
def busy_share(device: torch.device, found: dict):
    """Sample the GPU's utilisation every 500 ms while the body runs (into ``found``)."""
    if device.type != "cuda":
        yield
        return
    with tempfile.TemporaryFile("w+") as out:
        query = ["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits"]
        sampler = subprocess.Popen([*query, "-lms", "500"], stdout=out, text=True)
        try:
            yield
        finally:
            sampler.terminate()
            sampler.wait()
            out.seek(0)
            samples = [int(line) for line in out.read().split() if line.isdigit()]
            found["gpu_busy_median_pct"] = statistics.median(samples) if samples else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", help="cpu, cuda, cuda:N or auto")
    parser.add_argument("--sizes", default="bundled,base")
    parser.add_argument("--tokens", default="4096,32768", help="target tokens per batch")
    parser.add_argument("--steps", type=int, default=30, help="timed steps per setting")
    parser.add_argument(
        "--systems",
        default="fanyi,torch,marian",
        help="fanyi, its levers (fanyi-unfused: foreach Adam; fanyi-compile: torch.compile), "
        "and the peers torch (nn.Transformer) and marian (MarianMTModel)",
    )
    parser.add_argument("--read-each-step", action="store_true", help="loss read every step")
    parser.add_argument("--varied", action="store_true", help="a new batch shape every step")
    args = parser.parse_args()
    device = resolve_device(args.device)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    peak = next((v for k, v in PEAK_TFLOPS.items() if k in name), None)
    rows, options = [], {"read_each_step": args.read_each_step, "varied": args.varied}
    for size in args.sizes.split(","):
        for tokens in map(int, args.tokens.split(",")):
            for system in args.systems.split(","):
                busy: dict = {}
                try:
                    with busy_share(device, busy):
                        row = measure(system, size, tokens, args.steps, device, options)
                except Exception as error:  # one failing system costs its row, not the others'
                    row = {"system": system, "size": size, "batch_tokens": tokens, "tflops": 0.0}
                    row["error"] = f"{type(error).__name__}: {error}"[:300]
                row.update(busy)
                row["mfu"] = round(row["tflops"] / peak, 3) if peak else None
                print(json.dumps(row), flush=True)
                rows.append(row)
                if device.type == "cuda":
                    torch.cuda.empty_cache()
    print(json.dumps({"device": name, "torch": torch.__version__, "results": rows}))


if __name__ == "__main__":
    main()

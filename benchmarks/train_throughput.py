"""Training throughput on real Tatoeba batches: fp32 vs bf16, 1 vs 2 threads, tcmalloc vs glibc
malloc, fanyi vs torch.nn.Transformer; and what bf16 costs in dev loss after a short training.

The throughput matrix runs in child processes, one per allocator (tcmalloc must be preloaded
before the process starts), alternating allocators for ``--malloc-rounds`` rounds; inside a
child, fanyi and the torch.nn.Transformer peer (benchmarks/train_step.py) see the same batches,
interleaved so machine noise hits both. A step is forward + backward + Adam.

    .venv/bin/python benchmarks/train_throughput.py [--rounds 5] [--threads 1,2] [--steps 300]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from common import emit, interleaved, machine
from fanyi.cli.allocator import TCMALLOC_ENV, tcmalloc_library
from fanyi.config import load_yaml, override
from fanyi.data import Batch, DataConfig, TokenBatchSampler, collate, load_split, load_vocabs
from fanyi.data.build import prepare
from fanyi.model import ModelConfig, build_model
from fanyi.runtime import set_threads
from fanyi.train import TrainConfig, train
from train_step import TorchSeq2Seq, step_fn

REPO = Path(__file__).resolve().parents[1]
# the Tatoeba recipe's model (vocabulary sizes: the data's)
MODEL = ModelConfig(d_model=256, d_ff=1024, h=4, N_enc=3, N_dec=3, dropout=0.1, tie_embeddings=True)


def prepare_slice(out: Path, lines: int) -> Path:
    """The first ``lines`` lines of Tatoeba zh-en, prepared with the shipped recipe."""
    recipe = load_yaml(DataConfig, REPO / "configs" / "data" / "tatoeba-zh-en.yaml")
    prepare(
        override(
            recipe,
            {
                "limit": lines,
                "dev_size": 200,
                "test_size": 200,
                "vocab_size": 4000,
                "out_dir": str(out),
            },
        )
    )
    return out


def real_batches(data: Path, max_tokens: int, count: int) -> list[Batch]:
    """``count`` training batches of the data directory."""
    dataset = load_split(data, "train", load_vocabs(data))
    sampler = TokenBatchSampler(*dataset.sizes(), max_tokens, seed=1)
    return [collate([dataset[i] for i in b]) for b in sampler.batches()[:count]]


def throughput(data: Path, threads: list[int], rounds: int, max_tokens: int) -> dict:
    """Target tokens/s of each (model, dtype, threads), in this process."""
    vocab = len(load_vocabs(data)[1])
    c = dataclasses.replace(MODEL, src_vocab_size=vocab, tgt_vocab_size=vocab)
    batches = real_batches(data, max_tokens, 8)
    tokens = sum(b.ntokens for b in batches) / len(batches)
    figures = {}
    for n in threads:
        set_threads(n)
        torch.manual_seed(0)
        runs = {}
        for name, dtype in (("fp32", None), ("bf16", torch.bfloat16)):
            runs[f"fanyi_{name}_{n}t"] = step_fn(build_model(c).train(), batches, dtype, c.d_model)
            runs[f"torch_{name}_{n}t"] = step_fn(TorchSeq2Seq(c).train(), batches, dtype, c.d_model)
        seconds = interleaved(runs, rounds)
        figures |= {k: tokens / s for k, s in seconds.items()}
    return {"tokens_per_s": figures, "mean_target_tokens": tokens}


def run_child(data: Path, args: argparse.Namespace, tcmalloc: bool) -> dict:
    """The throughput matrix in a fresh process, with or without tcmalloc preloaded."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    if tcmalloc:
        env["LD_PRELOAD"] = tcmalloc_library() or ""
    env[TCMALLOC_ENV] = "0"
    command = [
        sys.executable,
        __file__,
        "--child",
        str(data),
        "--rounds",
        str(args.rounds),
        "--threads",
        args.threads,
        "--max-tokens",
        str(args.max_tokens),
    ]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def bf16_cost(data: Path, steps: int, work: Path) -> dict:
    """Dev loss after ``steps`` steps of the same training in fp32 and in bf16."""
    result = {}
    set_threads(2)
    for dtype in ("fp32", "bf16"):
        cfg = TrainConfig(
            data_dir=str(data),
            out_dir=str(work / dtype),
            model=MODEL,
            max_tokens=2048,
            max_steps=steps,
            warmup=max(steps // 3, 1),
            validate_every=steps,
            valid_bleu=False,
            best_metric="loss",
            dtype=dtype,
            progress=False,
            log_every=steps,
        )
        log = (train(cfg) / "log.jsonl").read_text().splitlines()
        valid = [r for r in map(json.loads, log) if r["kind"] == "valid"][-1]
        result[dtype] = {"dev_loss": valid["dev_loss"], "dev_nll": valid["dev_nll"]}
    result["dev_loss_bf16_minus_fp32"] = result["bf16"]["dev_loss"] - result["fp32"]["dev_loss"]
    return result


def summarise(children: dict[str, list[dict]], threads: list[int]) -> dict:
    """Median tokens/s per setting, and the ratios of bf16 to fp32, tcmalloc to glibc and fanyi to
    its peer."""
    tps = {
        malloc: {
            k: statistics.median(r["tokens_per_s"][k] for r in runs)
            for k in runs[0]["tokens_per_s"]
        }
        for malloc, runs in children.items()
    }
    best = tps.get("tcmalloc", tps["glibc"])
    ratios = {}
    for n in threads:
        ratios[f"fanyi_bf16_vs_fp32_{n}t"] = best[f"fanyi_bf16_{n}t"] / best[f"fanyi_fp32_{n}t"]
        for dtype in ("fp32", "bf16"):
            ratios[f"fanyi_vs_torch_{dtype}_{n}t"] = (
                best[f"fanyi_{dtype}_{n}t"] / best[f"torch_{dtype}_{n}t"]
            )
            if "tcmalloc" in tps:
                ratios[f"tcmalloc_vs_glibc_fanyi_{dtype}_{n}t"] = (
                    tps["tcmalloc"][f"fanyi_{dtype}_{n}t"] / tps["glibc"][f"fanyi_{dtype}_{n}t"]
                )
    if len(threads) > 1:
        a, b = threads[0], threads[-1]
        for dtype in ("fp32", "bf16"):
            ratios[f"fanyi_{dtype}_{b}t_vs_{a}t"] = (
                best[f"fanyi_{dtype}_{b}t"] / best[f"fanyi_{dtype}_{a}t"]
            )
    rounded = {m: {k: round(v) for k, v in t.items()} for m, t in tps.items()}
    return {"target_tokens_per_s": rounded, "ratios": {k: round(v, 3) for k, v in ratios.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--max-tokens", type=int, default=4096)
    parser.add_argument("--malloc-rounds", type=int, default=1)
    parser.add_argument("--steps", type=int, default=300, help="steps of the bf16 cost runs")
    parser.add_argument("--lines", type=int, default=12000, help="Tatoeba lines to prepare")
    parser.add_argument("--child", metavar="DATA", help=argparse.SUPPRESS)
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    if args.child:
        emit(throughput(Path(args.child), threads, args.rounds, args.max_tokens))
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = prepare_slice(Path(tmp) / "data", args.lines)
        mallocs = ["glibc", "tcmalloc"] if tcmalloc_library() else ["glibc"]
        children: dict[str, list[dict]] = {m: [] for m in mallocs}
        for _ in range(args.malloc_rounds):
            for malloc in mallocs:
                children[malloc].append(run_child(data, args, malloc == "tcmalloc"))
                print(f"{malloc}: {children[malloc][-1]['tokens_per_s']}", flush=True)
        result = {
            "benchmark": "train_throughput",
            "machine": machine(),
            "threads": threads,
            "rounds": args.rounds,
            "malloc_rounds": args.malloc_rounds,
            "max_tokens": args.max_tokens,
            "model": MODEL,
            "lines": args.lines,
            "mean_target_tokens": round(children["glibc"][0]["mean_target_tokens"]),
            **summarise(children, threads),
        }
        result["bf16_cost"] = bf16_cost(data, args.steps, Path(tmp))
        print(json.dumps(result["ratios"], indent=1), flush=True)
    emit(result)


if __name__ == "__main__":
    main()

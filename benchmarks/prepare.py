"""Benchmark: time to prepare Tatoeba and Multi30k; padding of token vs fixed-size batches.

For each recipe in configs/data, ``prepare`` runs into a fresh temporary folder (cold) and then
again (the no-op re-run). The prepared train split is then batched two ways, at the same
average budget: the peer, shuffled batches of a fixed number of sentences (The Annotated
Transformer, torchtext's iterator without bucketing), and fanyi's TokenBatchSampler with
``max_tokens`` set to the peer's mean batch cost (batch size x longest side). The last line
printed is one JSON object with every figure, the machine, threads, versions and settings.

    python benchmarks/prepare.py [--sentences 64] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import opencc
import sentencepiece
import torch

import fanyi
from fanyi.config import load_yaml, override
from fanyi.data import DataConfig, TokenBatchSampler, load_split, padding_fraction
from fanyi.data.build import prepare

REPO = Path(__file__).resolve().parents[1]
RECIPES = {
    "tatoeba-zh-en": "configs/data/tatoeba-zh-en.yaml",
    "multi30k-de-en": "configs/data/multi30k-de-en.yaml",
}


def time_prepare(recipe: str, out_dir: Path) -> tuple[dict, float, float]:
    """(manifest, seconds cold, seconds for the no-op re-run)."""
    config = override(load_yaml(DataConfig, REPO / recipe), {"out_dir": str(out_dir)})
    start = time.perf_counter()
    manifest = prepare(config)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    prepare(config)
    return manifest, cold, time.perf_counter() - start


def fixed_batches(n: int, sentences: int, seed: int) -> list[list[int]]:
    """The peer: shuffled examples cut into batches of ``sentences``."""
    order = np.random.default_rng(seed).permutation(n).tolist()
    return [order[i : i + sentences] for i in range(0, n, sentences)]


def batch_cost(batch: list[int], sizes: np.ndarray) -> int:
    return len(batch) * int(sizes[batch].max())


def compare_padding(out_dir: Path, sentences: int, seed: int) -> dict:
    """Padding fraction of the peer's and fanyi's batches of the train split."""
    dataset = load_split(out_dir, "train")
    src, tgt = dataset.sizes()
    longest = np.maximum(src, tgt)
    peer = fixed_batches(len(dataset), sentences, seed)
    budget = int(np.mean([batch_cost(b, longest) for b in peer]))
    sampler = TokenBatchSampler(src, tgt, max_tokens=budget, seed=seed)
    ours = list(sampler)
    peer_pad, our_pad = padding_fraction(peer, src, tgt), padding_fraction(ours, src, tgt)
    return {
        "examples": len(dataset),
        "max_tokens": budget,
        "fixed_batches": len(peer),
        "token_batches": len(ours),
        "fixed_padding": round(peer_pad, 4),
        "token_padding": round(our_pad, 4),
        "padding_ratio_fixed_over_token": round(peer_pad / our_pad, 2),
        "token_mean_sentences": round(len(dataset) / len(ours), 1),
    }


def summarise(reports: dict) -> dict:
    """Cleaning reports without the quoted malformed lines."""
    return {name: {k: v for k, v in r.items() if k != "malformed"} for name, r in reports.items()}


def environment() -> dict:
    return {
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "system": platform.platform(),
        "cpus": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "versions": {
            "fanyi": fanyi.__version__,
            "python": platform.python_version(),
            "torch": torch.__version__,
            "numpy": np.__version__,
            "sentencepiece": sentencepiece.__version__,
            "opencc": getattr(opencc, "__version__", "unknown"),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=64, help="peer batch size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, recipe in RECIPES.items():
            manifest, cold, rerun = time_prepare(recipe, Path(tmp) / name)
            results[name] = {
                "recipe": recipe,
                "seconds": round(cold, 2),
                "rerun_seconds": round(rerun, 3),
                "pairs": manifest.pairs,
                "vocab_size": manifest.vocab.src_size,
                "report": summarise(manifest.report),
                **compare_padding(Path(tmp) / name, args.sentences, args.seed),
            }
            print(
                f"{name}: prepared in {cold:.2f} s (re-run {rerun:.3f} s); padding "
                f"{results[name]['fixed_padding']:.1%} with {args.sentences}-sentence batches, "
                f"{results[name]['token_padding']:.1%} with token batches"
            )
    settings = {
        "peer_sentences": args.sentences,
        "seed": args.seed,
        "spm_threads": 1,
        "data_root": os.environ.get("FANYI_DATA", "../shared/data"),
    }
    print(
        json.dumps(
            {"benchmark": "prepare", **environment(), "settings": settings, "results": results},
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()

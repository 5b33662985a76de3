"""Benchmark: fanyi at scale. Synthetic corpora of 100k, 1M, 5M pairs (2–3 random Tatoeba pairs
joined, each side in its language's way) are prepared and trained on.

For each size: ``fanyi prepare`` (zh→en, the default DataConfig, ``--workers``) in a subprocess,
its wall time and peak memory (the main process's RSS, and the PSS summed over it and its worker
processes, which counts the pages they share once; sampled every 0.1 s); then training with 1 and with 2 processes (torchrun, one thread
each): each rank's start-up (from its launch, and from its own start, to its first batch ready)
and its resident memory then (anonymous vs mapped files, and the peak), and the target tokens/s
of the first ``--steps`` steps. Last, on Tatoeba itself: the same training steps fed from the
memory-mapped shards and from the split encoded in memory as before (interleaved rounds), tokens/s
of both. The last line is one JSON object.

    nice -n 15 .venv/bin/python benchmarks/scale.py --sizes 100k,1M,5M [--workers 2] [--steps 50]
"""

from __future__ import annotations

import time

STARTED = time.time()  # a training child's own start, before its imports

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from common import emit, machine  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TATOEBA = "tatoeba-cmn-eng/cmn.txt"
MODEL = {"d_model": 256, "d_ff": 1024, "h": 4, "N_enc": 3, "N_dec": 3, "tie_embeddings": True}


def parse_size(text: str) -> int:
    """``100k`` → 100000, ``5M`` → 5000000."""
    scale = {"k": 10**3, "m": 10**6}.get(text[-1].lower(), 1)
    return int(float(text.rstrip("kKmM")) * scale)


def synthetic_corpus(tatoeba: Path, pairs: int, path: Path, seed: int = 1) -> None:
    """``pairs`` lines in cmn.txt's layout, each 2–3 random Tatoeba pairs joined."""
    from fanyi.text.lang import join_sentences

    rows = [line.split("\t")[:2] for line in tatoeba.read_text(encoding="utf-8").splitlines()]
    rng = np.random.default_rng(seed)
    with path.open("w", encoding="utf-8") as f:
        for start in range(0, pairs, 100_000):
            count = min(100_000, pairs - start)
            picks, joins = rng.integers(0, len(rows), (count, 3)), rng.integers(2, 4, count)
            for chosen, k in zip(picks.tolist(), joins.tolist(), strict=True):
                en = join_sentences([rows[i][0] for i in chosen[:k]], "en")
                zh = join_sentences([rows[i][1] for i in chosen[:k]], "zh")
                f.write(f"{en}\t{zh}\tsynthetic\n")


def _memory_of(pid: int, field: str) -> float:
    """``field`` of a process's memory (MB; ``Rss``, or ``Pss``: its proportional share of the
    pages it shares, such as a forked worker's with its parent), 0 once it is gone."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0.0
    found = (int(line.split()[1]) / 1024 for line in lines if line.startswith(f"{field}:"))
    return next(found, 0.0)


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                children = [int(c) for c in task.read_text().split()]
            except OSError:
                children = []
            found += children
            todo += children
    return found


def run_measured(command: list[str], env: dict | None = None) -> dict:
    """Run ``command``; its wall time and peak memory (its RSS; the PSS of it and its children)."""
    peaks = {"main": 0.0, "tree": 0.0}
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)

    def sample() -> None:
        while process.poll() is None:
            main = _memory_of(process.pid, "Rss")
            tree = sum(_memory_of(p, "Pss") for p in [process.pid, *_descendants(process.pid)])
            peaks["main"], peaks["tree"] = max(peaks["main"], main), max(peaks["tree"], tree)
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    output = process.communicate()[0]
    sampler.join()
    if process.returncode:
        raise RuntimeError(f"{command[:4]} failed with {process.returncode}")
    seconds = time.perf_counter() - start
    return {
        "seconds": round(seconds, 1),
        "peak_rss_mb": round(peaks["main"]),
        "peak_pss_mb_with_children": round(peaks["tree"]),
        "output": output,
    }


def measure_prepare(corpus: Path, out: Path, workers: int) -> dict:
    command = [
        sys.executable,
        "-m",
        "fanyi",
        "prepare",
        "--train",
        str(corpus),
        "--out-dir",
        str(out),
    ]
    result = run_measured([*command, "--workers", str(workers)])
    summary = json.loads(result.pop("output").strip().splitlines()[-1])
    return {**result, "pairs": summary["pairs"], "kept": summary["report"]["corpus"]["kept"]}


def _memory_mb() -> dict:
    """This process's resident memory now: all, anonymous, mapped files; and its peak."""
    fields = {
        "VmRSS": "rss_mb",
        "RssAnon": "rss_anon_mb",
        "RssFile": "rss_file_mb",
        "VmHWM": "peak_rss_mb",
    }
    values = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key = line.split(":")[0]
        if key in fields:
            values[fields[key]] = round(int(line.split()[1]) / 1024)
    return values


def time_data(data: Path, max_tokens: int) -> float:
    """Seconds to map the train split and batch its first epoch, as the trainer does (the
    rest of a start-up is importing torch and building the model, whatever the corpus)."""
    from fanyi import runtime
    from fanyi.data import TokenBatchSampler, load_split

    start = time.perf_counter()
    rank, world_size = runtime.job_rank()
    sampler = TokenBatchSampler(
        *load_split(data, "train").sizes(), max_tokens, 1, rank=rank, world_size=world_size
    )
    len(sampler)
    return round(time.perf_counter() - start, 2)


def child_train(data: Path, out: Path, steps: int, max_tokens: int) -> None:
    """One training process (of a torchrun job, or alone): its start-up, memory and, on rank
    0, the throughput of the first ``steps`` steps, as a JSON line."""
    from fanyi import runtime
    from fanyi.model import ModelConfig
    from fanyi.train import TrainConfig
    from fanyi.train.trainer import Trainer, batch_stream

    launched = float(os.environ.get("SCALE_LAUNCHED", STARTED))
    cfg = TrainConfig(
        data_dir=str(data), out_dir=str(out), model=ModelConfig(**MODEL), max_tokens=max_tokens,
        max_steps=steps, warmup=steps, validate_every=10**9, valid_bleu=False, best_metric="loss",
        log_every=10, progress=False, threads=1, keep_last=1, valid_max_tokens=max_tokens,
    )  # fmt: skip
    with runtime.training_process("cpu", 1) as device:
        data_s = time_data(data, max_tokens)
        trainer = Trainer(cfg, None, device, "fp32")
        built = time.time()
        next(batch_stream(trainer.sampler, trainer.state))  # this epoch's batches, as run() does
        ready, memory = time.time(), _memory_mb()
        trainer.run()
    report = {
        "rank": trainer.ctx.dist.rank,
        "startup_s_from_launch": round(ready - launched, 2),
        "startup_s": round(ready - STARTED, 2),
        "trainer_built_s": round(built - STARTED, 2),
        "data_s": data_s,
        "examples": len(trainer.data.train),
        **memory,
        "peak_rss_mb": _memory_mb()["peak_rss_mb"],
    }
    if trainer.ctx.dist.main:
        log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
        rates = [r["tgt_tokens_per_s"] for r in log if r["kind"] == "train"]
        report |= {
            "tokens_per_s_first_window": round(rates[0]),
            "tokens_per_s": round(float(np.mean(rates[1:]))),
        }
    print(json.dumps(report))


def measure_training(data: Path, out: Path, processes: int, args: argparse.Namespace) -> dict:
    """Start ``processes`` training processes on ``data``; their reports."""
    child = [
        __file__,
        "--child-train",
        str(data),
        "--out",
        str(out),
        "--steps",
        str(args.steps),
        "--max-tokens",
        str(args.max_tokens),
    ]
    if processes == 1:
        command = [sys.executable, *child]
    else:
        torchrun = str(Path(sys.executable).with_name("torchrun"))
        command = [torchrun, "--standalone", f"--nproc_per_node={processes}", *child]
    env = {**os.environ, "SCALE_LAUNCHED": str(time.time()), "OMP_NUM_THREADS": "1"}
    result = run_measured(command, env)
    ranks = sorted(
        (
            json.loads(line)
            for line in result.pop("output").splitlines()
            if line.startswith('{"rank"')
        ),
        key=lambda r: r["rank"],
    )
    throughput = {k: ranks[0].pop(k) for k in ("tokens_per_s_first_window", "tokens_per_s")}
    return {"processes": processes, "wall_seconds": result["seconds"], "ranks": ranks, **throughput}


def tatoeba_throughput(tatoeba: Path, work: Path, args: argparse.Namespace) -> dict:
    """Tokens/s of the same training steps fed from the memory-mapped split and from the split
    encoded in memory (as fanyi did before shards), in interleaved rounds."""
    import torch

    from common import interleaved
    from fanyi import runtime
    from fanyi.data import (
        DataConfig,
        ParallelDataset,
        TokenBatchSampler,
        collate,
        load_split,
        load_vocabs,
    )
    from fanyi.data.build import prepare
    from fanyi.model import ModelConfig, build_model
    from fanyi.train.context import TrainContext
    from fanyi.train.distributed import Distributed
    from fanyi.train.loss import LabelSmoothingLoss
    from fanyi.train.step import StepSettings, adam, train_step

    runtime.set_threads(1)
    data = work / "tatoeba"
    prepare(DataConfig(train=str(tatoeba), out_dir=str(data)), workers=args.workers)
    vocabs, mapped = load_vocabs(data), load_split(data, "train")
    lines = [
        (data / f"train.{side}").read_text(encoding="utf-8").splitlines() for side in ("src", "tgt")
    ]
    in_memory = ParallelDataset(vocabs[0].encode_batch(lines[0]), vocabs[1].encode_batch(lines[1]))
    batches = TokenBatchSampler(*mapped.sizes(), args.max_tokens, seed=1).batches()[
        : args.tatoeba_steps
    ]
    size = len(vocabs[0])
    torch.manual_seed(0)
    model = build_model(ModelConfig(**MODEL, src_vocab_size=size, tgt_vocab_size=size)).train()
    optimizer, criterion = adam(model.parameters()), LabelSmoothingLoss(0.1, 0)
    settings = StepSettings(model.config.d_model, 4000, 1.0, 1.0)
    ctx = TrainContext(model, optimizer, criterion, settings, Distributed())

    def steps(dataset: ParallelDataset):
        def run() -> None:
            for step, indices in enumerate(batches, 1):
                train_step(ctx, [collate(dataset.examples(indices, 0))], step)

        return run

    def reads(dataset: ParallelDataset):
        return lambda: [collate(dataset.examples(indices, 0)) for indices in batches]

    tokens = sum(collate(mapped.examples(b, 0)).ntokens for b in batches)
    train_s = interleaved({"mapped": steps(mapped), "in_memory": steps(in_memory)}, args.rounds)
    read_s = interleaved({"mapped": reads(mapped), "in_memory": reads(in_memory)}, args.rounds * 3)
    return {
        "pairs": len(mapped), "steps": len(batches), "max_tokens": args.max_tokens,
        "tokens_per_s": {name: round(tokens / s) for name, s in train_s.items()},
        "mapped_over_in_memory": round(train_s["in_memory"] / train_s["mapped"], 3),
        "batch_read_and_collate_ms": {name: round(1000 * s / len(batches), 2) for name, s in read_s.items()},
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100k,1M,5M", help="corpus sizes in pairs (k, M)")
    parser.add_argument("--workers", type=int, default=2, help="fanyi prepare --workers")
    parser.add_argument("--steps", type=int, default=50, help="training steps measured")
    parser.add_argument("--max-tokens", type=int, default=4096)
    parser.add_argument("--processes", default="1,2", help="training processes to measure")
    parser.add_argument("--tatoeba-steps", type=int, default=20, help="steps per round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds on Tatoeba")
    parser.add_argument("--work", help="folder for the corpora and runs (default: a temporary one)")
    parser.add_argument("--child-train", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_train:
        return child_train(Path(args.child_train), Path(args.out), args.steps, args.max_tokens)
    tatoeba = Path(os.environ.get("FANYI_DATA") or REPO.parent / "shared" / "data") / TATOEBA
    with tempfile.TemporaryDirectory(dir=args.work) as folder:
        work = Path(folder)
        results = {}
        for size in map(parse_size, args.sizes.split(",")):
            results[str(size)] = run_size(tatoeba, size, work, args)
            print(json.dumps({str(size): results[str(size)]}), flush=True)
        tatoeba_figures = tatoeba_throughput(tatoeba, work, args)
    settings = {k: v for k, v in vars(args).items() if k not in ("child_train", "out")}
    emit(
        {
            "benchmark": "scale",
            "machine": machine(),
            "settings": settings,
            "sizes": results,
            "tatoeba": tatoeba_figures,
        }
    )


def run_size(tatoeba: Path, size: int, work: Path, args: argparse.Namespace) -> dict:
    """Build, prepare and train on a corpus of ``size`` pairs; delete it afterwards."""
    corpus, data = work / f"corpus-{size}.tsv", work / f"data-{size}"
    start = time.perf_counter()
    synthetic_corpus(tatoeba, size, corpus)
    built = time.perf_counter() - start
    prepared = measure_prepare(corpus, data, args.workers)
    shards = sum(p.stat().st_size for p in data.glob("*.npy"))
    training = [
        measure_training(data, work / f"run-{size}-{n}", n, args)
        for n in map(int, args.processes.split(","))
    ]
    figures = {
        "corpus_mb": round(corpus.stat().st_size / 2**20), "corpus_build_s": round(built, 1),
        "prepare": prepared, "shards_mb": round(shards / 2**20), "training": training,
    }  # fmt: skip
    corpus.unlink()
    for folder in [data, *work.glob(f"run-{size}-*")]:
        shutil.rmtree(folder)
    return figures


if __name__ == "__main__":
    main()

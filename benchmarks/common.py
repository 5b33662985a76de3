"""Shared pieces of the benchmarks: machine description, timing, the JSON result line."""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import torch

from fanyi import precision
from fanyi.ensemble_dir import first_member
from fanyi.translate.model_names import TATOEBA


def machine() -> dict:
    """What ran the benchmark: CPU, cores, versions."""
    return {
        "cpu": precision.cpu_name(),
        "isa": precision.isa(),
        "cores": precision.cores(),
        "python": platform.python_version(),
        "torch": torch.__version__,
    }


def with_allocator(malloc: str) -> str:
    """Re-execute this script under ``malloc`` (``tcmalloc``, as ``fanyi translate`` runs where the
    system has it, or ``glibc``) unless it already is; returns the allocator in use."""
    from fanyi.cli.allocator import reexec_with_tcmalloc

    if malloc == "tcmalloc":
        reexec_with_tcmalloc([sys.executable, *sys.argv])
    return "tcmalloc" if "tcmalloc" in os.environ.get("LD_PRELOAD", "") else "glibc"


def matmul_gflops(
    threads: int, n: int = 1024, calls: int = 20, seconds: float = 2.0
) -> dict[str, float]:
    """The host's speed as the model sees it: GFLOP/s of an n×n matmul in bf16 and fp32, the
    median of ``calls`` calls or of as many as ``seconds`` allow (at least 3 each).

    Cloud hosts of one type differ by 2× or more; a long benchmark records this beside its
    tokens/s so that runs on different hosts can be compared. Where bf16 is emulated (AVX2 only:
    under 1 GFLOP/s, 2-3 s a call) the time limit keeps the measure to seconds.
    """
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    speeds = {}
    for name, dtype in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
        a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
        times: list[float] = []
        start = time.perf_counter()
        while len(times) < calls and (len(times) < 3 or time.perf_counter() - start < seconds):
            times.append(timed(functools.partial(torch.matmul, a, b)))
        speeds[name] = round(2 * n**3 / statistics.median(times) / 1e9, 1)
    torch.set_num_threads(previous)
    return speeds


def add_one_model_argument(parser: argparse.ArgumentParser) -> None:
    """MODEL, for a benchmark against peers that decode one model: default the first member of
    the bundled Tatoeba ensemble (``zh-en``), the model the speed figures in docs/ were taken on."""
    parser.add_argument(
        "model",
        nargs="?",
        default=str(first_member(TATOEBA)),
        help="model directory (default: the first member of the bundled Tatoeba ensemble, "
        "zh-en, as the peers decode one model)",
    )


def read_lines(path: str, limit: int | None = None) -> list[str]:
    """The lines of a text file (its first ``limit`` when given)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return lines[:limit] if limit else lines


def direction_pairs(split: Path, part: str, to: str) -> list[tuple[str, str]]:
    """(source, reference) of every pair of split ``part`` of a prepared bidirectional data
    directory translated into ``to``, the source's target tag removed."""
    tag = f"<2{to}> "
    lines = (read_lines(str(split / f"{part}.{side}")) for side in ("src", "tgt"))
    pairs = zip(*lines, strict=True)
    return [(src.removeprefix(tag), ref) for src, ref in pairs if src.startswith(tag)]


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(
    runs: dict[str, Callable[[], object]], rounds: int, warmup: int = 1
) -> dict[str, float]:
    """Median seconds per call for each run, calling them in turn so machine noise hits all alike."""
    for _ in range(warmup):
        for fn in runs.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            times[name].append(timed(fn))
    return {name: statistics.median(t) for name, t in times.items()}


def scored(hypotheses: list[str], refs: list[str], target: str) -> dict:
    """BLEU, chrF, brevity penalty and length ratio (output / reference tokens), sacreBLEU."""
    from fanyi.scores import score

    scores = score(hypotheses, [refs], target)
    return {
        "bleu": round(scores.bleu, 2),
        "chrf": round(scores.chrf, 2),
        "bp": round(scores.bp, 3),
        "length_ratio": round(scores.length_ratio, 3),
        "signature": scores.bleu_signature,
    }


def translated_scores(translator, sources: list[str], refs: list[str], to: str) -> dict:
    """Translate ``sources`` into ``to`` with a fanyi ``Translator``: BLEU, chrF, length ratio,
    seconds and the BLEU signature."""
    from fanyi.scores import score

    start = time.perf_counter()
    hypotheses = translator(sources, to=to)
    seconds = time.perf_counter() - start
    scores = score(hypotheses, [refs], to)
    return {
        "bleu": round(scores.bleu, 2),
        "chrf": round(scores.chrf, 2),
        "length_ratio": round(scores.length_ratio, 3),
        "seconds": round(seconds, 2),
        "signature": scores.bleu_signature,
    }


def emit(result: dict) -> None:
    """The last line of every benchmark: all figures as one JSON object."""
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))


def off_and_on_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of the benchmarks that translate held-out lines with an option off and on
    (levers.py, search.py length): model, the folder ``fanyi data`` wrote, threads and dtype."""
    parser.add_argument("-m", "--model", default=None, help="model (default: the bundled one)")
    parser.add_argument("--sources", default="data/sources", help="fanyi data's output folder")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dtype", default="fp32", help="fp32 (default: every host alike), auto …")
    return parser


def off_and_on_translator(args: argparse.Namespace):  # -> fanyi.Translator
    """The translator those benchmarks' ``args`` ask for, on ``args.threads`` threads."""
    from fanyi.runtime import set_threads
    from fanyi.translate.translator import Translator

    set_threads(args.threads)
    return Translator.load(args.model, dtype=args.dtype)


def emit_off_and_on(benchmark: str, args: argparse.Namespace, results: dict, **settings) -> None:
    """Those benchmarks' last line: their results, model, dtype, ``settings`` and host."""
    emit(
        {
            "benchmark": benchmark,
            "model": args.model,
            "dtype": args.dtype,
            **settings,
            "results": results,
            "machine": machine(),
        }
    )


@contextmanager
def fanyi_server(*args: str, log: Path) -> Iterator[str]:
    """``fanyi serve ARGS`` in a subprocess on a free 127.0.0.1 port (its output to ``log``),
    ready to answer; yields its base URL and stops it afterwards."""
    import httpx  # the benchmarks that serve need it; the others do not

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "fanyi", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with open(log, "wb") as output:
        server = subprocess.Popen([*command, *args], stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"fanyi serve did not start; see {log}")
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def percentiles(values: list[float]) -> dict[str, float]:
    """Count, p50, p95, p99 and max of ``values`` (seconds), rounded to milliseconds."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def at(q: float) -> float:  # nearest rank
        return round(ordered[max(0, math.ceil(q * len(ordered)) - 1)], 3)

    return {"count": len(ordered), "p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": at(1.0)}

"""Benchmark: light requests are always served, alone, beside heavy ones, and beside a CPU hog.

``fanyi serve`` runs in a subprocess on 127.0.0.1 at its default timeout (30 s); ``--clients``
client threads, each on its own keep-alive connection, send requests back to back. A light
request is 1-3 Tatoeba-like sentences at the model's default beam; a heavy one, two texts of
1,000 characters at beam 8, within every limit, which the bundled model decodes for minutes, so
it ends in the timeout (503) and its decoding is cancelled. Each condition runs two phases:
light only (``--alone`` seconds, every client light), then mixed (``--seconds``, ``--heavy`` of
the clients heavy). The conditions: ``quiet`` (the server alone on the machine) and ``hog``
(``--hogs`` busy-looping processes beside it, one per core by default: a real server is never
alone on its machine). The figures per phase: the light requests' latency (p50, p95, p99, max),
the answers by status, how long the service takes to be idle after the load. The claim: no
light request gets a 503 and light p99 stays under 5 s. The last line is one JSON object.

    python benchmarks/serve_load.py [-m MODEL] [--clients 32] [--heavy 8] [--alone 15] \\
        [--seconds 45] [--conditions quiet,hog] [--hogs CORES]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from common import emit, fanyi_server, machine, percentiles
from fanyi.precision import cores

LIGHT = [
    "你好。",
    "Where is the train station?",
    "这本书很有意思。",
    "Thank you very much.",
    "我们明天去北京。",
    "The weather is nice today.",
    "你叫什么名字？",
    "I like tea.",
    "他每天早上六点起床。",
    "Could you speak more slowly, please?",
]
HEAVY = ["1234567890" * 100, "我们" * 500, "a " * 500]  # long, repetitive outputs
P99_GOAL_S = 5.0


def light_body(i: int) -> dict:
    """Request ``i`` of a light client: 1-3 sentences, the model's default beam."""
    return {"text": [LIGHT[(i + k) % len(LIGHT)] for k in range(1 + i % 3)]}


def client(url: str, heavy: bool, until: float, n: int, record: list) -> None:
    """Send requests back to back until ``until``; record (kind, status, seconds) of each."""
    kind = "heavy" if heavy else "light"
    with httpx.Client(base_url=url, timeout=120) as http:
        i = n
        while time.monotonic() < until:
            if heavy:
                body = {"text": [HEAVY[i % 3], HEAVY[(i + 1) % 3]], "beam": 8}
            else:
                body = light_body(i)
            start = time.monotonic()
            try:
                status = http.post("/translate", json=body).status_code
            except httpx.TransportError as error:
                status = type(error).__name__
            record.append((kind, status, time.monotonic() - start))
            i += 1


def load(url: str, clients: int, heavy: int, seconds: float) -> list:
    """Run ``clients`` clients (the first ``heavy`` of them heavy) for ``seconds``."""
    record: list = []
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=client, args=(url, n < heavy, until, n, record))
        for n in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return record


def summary(record: list, idle: float) -> dict:
    """A phase's light latency, answers by status, light 503s and errors, time to idle."""
    light = [seconds for kind, status, seconds in record if kind == "light" and status == 200]
    statuses = Counter(f"{kind} {status}" for kind, status, _ in record)
    errors = sum(
        1
        for kind, status, _ in record
        if (not isinstance(status, int) or status >= 500) and (kind, status) != ("heavy", 503)
    )
    return {
        "light_latency_s": percentiles(light),
        "answers": dict(sorted(statuses.items())),
        "light_503": statuses.get("light 503", 0),
        "errors_other_than_heavy_timeouts": errors,
        "idle_after_load_s": idle,
    }


def seconds_to_idle(url: str) -> float:
    """How long after the load the service reports no decoding."""
    start = time.monotonic()
    with httpx.Client(base_url=url, timeout=30) as http:
        while http.get("/health").json()["busy"]:
            time.sleep(0.05)
    return round(time.monotonic() - start, 3)


@contextmanager
def cpu_hogs(count: int) -> Iterator[None]:
    """``count`` processes that spin on a core each, for the block's duration."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def condition(url: str, args: argparse.Namespace) -> dict:
    """Both phases, light only then mixed, each followed by the wait until idle."""
    phases = {}
    for name, heavy, seconds in (
        ("light_only", 0, args.alone),
        ("mixed", args.heavy, args.seconds),
    ):
        record = load(url, args.clients, heavy, seconds)
        phases[name] = summary(record, seconds_to_idle(url))
        print(f"  {name}: {phases[name]['light_latency_s']}  {phases[name]['answers']}", flush=True)
    return phases


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-m", "--model", help="model directory (default: bundled)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--heavy", type=int, default=8, help="heavy clients in the mixed phase")
    parser.add_argument("--alone", type=float, default=15.0, help="seconds of light load only")
    parser.add_argument("--seconds", type=float, default=45.0, help="seconds of mixed load")
    parser.add_argument("--threads", type=int, default=1, help="the service's --threads")
    parser.add_argument("--conditions", default="quiet,hog", help="quiet, hog, or both")
    parser.add_argument("--hogs", type=int, default=cores(), help="busy processes (hog)")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    model = ["-m", args.model] if args.model else []
    results = {}
    with (
        tempfile.TemporaryDirectory() as tmp,
        fanyi_server(*model, "--threads", str(args.threads), log=Path(tmp) / "serve.log") as url,
    ):
        for name in args.conditions.split(","):
            print(f"{name}:", flush=True)
            with cpu_hogs(args.hogs if name == "hog" else 0):
                results[name] = condition(url, args)
    phases = [phase for result in results.values() for phase in result.values()]
    light_503 = sum(phase["light_503"] for phase in phases)
    p99 = max(phase["light_latency_s"].get("p99", float("inf")) for phase in phases)
    print(f"light 503s: {light_503}; worst light p99 {p99} s (goal: 0 and < {P99_GOAL_S} s)")
    emit(
        {
            "benchmark": "serve_load",
            "conditions": results,
            "light_503": light_503,
            "light_p99_worst_s": p99,
            "goal_met": light_503 == 0 and p99 < P99_GOAL_S,
            "errors_other_than_heavy_timeouts": sum(
                phase["errors_other_than_heavy_timeouts"] for phase in phases
            ),
            "settings": vars(args),
            "machine": machine(),
            "load_average": os.getloadavg(),
        }
    )


if __name__ == "__main__":
    main()

"""Benchmark: light requests keep being served while heavy ones load the HTTP service.

``fanyi serve`` runs in a subprocess on 127.0.0.1; ``--clients`` client threads, each on its own
keep-alive connection, send requests back to back. Phase 1 (``--alone`` seconds): every client
is light, one short sentence at beam 4. Phase 2 (``--seconds``): ``--heavy`` of them send heavy
requests instead, two texts of 1,000 characters at beam 8 that the bundled model decodes for
minutes alone, within every limit, so they end in the service's timeout (503) and their decoding
is cancelled. The figures are the light requests' latency in each phase (p50, p95, p99, max),
the answers by status, and how long the service takes to be idle after the load. The last
line is one JSON object.

    python benchmarks/serve_load.py [-m MODEL] [--clients 32] [--heavy 8] [--seconds 45]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

from common import emit, fanyi_server, machine, percentiles

LIGHT = [
    "你好。",
    "Where is the train station?",
    "这本书很有意思。",
    "Thank you very much.",
    "我们明天去北京。",
    "The weather is nice today.",
    "你叫什么名字？",
    "I like tea.",
]
HEAVY = ["1234567890" * 100, "我们" * 500, "a " * 500]  # long, repetitive outputs


def client(url: str, heavy: bool, until: float, n: int, record: list) -> None:
    """Send requests back to back until ``until``; record (kind, status, seconds) of each."""
    kind = "heavy" if heavy else "light"
    with httpx.Client(base_url=url, timeout=120) as http:
        i = n
        while time.monotonic() < until:
            if heavy:
                body = {"text": [HEAVY[i % 3], HEAVY[(i + 1) % 3]], "beam": 8}
            else:
                body = {"text": [LIGHT[i % len(LIGHT)]], "beam": 4}
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


def summary(record: list) -> dict:
    light = [seconds for kind, status, seconds in record if kind == "light" and status == 200]
    statuses = Counter(f"{kind} {status}" for kind, status, _ in record)
    return {"light_latency_s": percentiles(light), "answers": dict(sorted(statuses.items()))}


def seconds_to_idle(url: str) -> float:
    """How long after the load the service reports no decoding."""
    start = time.monotonic()
    with httpx.Client(base_url=url, timeout=30) as http:
        while http.get("/health").json()["busy"]:
            time.sleep(0.05)
    return round(time.monotonic() - start, 3)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-m", "--model", help="model directory (default: bundled)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--heavy", type=int, default=8, help="heavy clients in phase 2")
    parser.add_argument("--alone", type=float, default=15.0, help="seconds of light load only")
    parser.add_argument("--seconds", type=float, default=45.0, help="seconds of mixed load")
    parser.add_argument("--timeout", type=float, default=30.0, help="the service's --timeout")
    parser.add_argument("--threads", type=int, default=1)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    model = ["-m", args.model] if args.model else []
    settings = ["--threads", str(args.threads), "--timeout", str(args.timeout)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        fanyi_server(*model, *settings, log=Path(tmp) / "serve.log") as url,
    ):
        alone = summary(load(url, args.clients, 0, args.alone))
        mixed_record = load(url, args.clients, args.heavy, args.seconds)
        idle = seconds_to_idle(url)
    mixed = summary(mixed_record)
    server_errors = sum(
        1 for _, status, _ in mixed_record if not isinstance(status, int) or status >= 500
    )
    heavy_timeouts = sum(1 for kind, status, _ in mixed_record if (kind, status) == ("heavy", 503))
    for name, phase in (("light only", alone), ("light beside heavy", mixed)):
        print(f"{name}: {phase['light_latency_s']}  {phase['answers']}")
    print(
        f"idle {idle} s after the load; light p99 beside heavy < 5 s: "
        f"{mixed['light_latency_s'].get('p99', float('inf')) < 5}"
    )
    emit(
        {
            "benchmark": "serve_load",
            "light_only": alone,
            "mixed": mixed,
            "light_p99_s": mixed["light_latency_s"].get("p99"),
            "errors_other_than_heavy_timeouts": server_errors - heavy_timeouts,
            "idle_after_load_s": idle,
            "settings": vars(args),
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

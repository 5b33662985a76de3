"""Benchmark: fuzzing the Python API and the HTTP API with what users (and attackers) send.

Strings mix every kind of character that has broken translators: control characters, lone
surrogates (what ``surrogateescape`` makes of bytes that are not UTF-8), noncharacters, private
use, astral emoji, combining marks, right-to-left text, zero-width and BOM characters, the
model's own special pieces (``<2en>``, ``</s>``, ``▁``), and long repetitions. Phase 1 sends
``--strings`` of them (up to ``--longest`` pieces each) through ``Translator.translations`` in
batches (greedy, outputs capped at ``--max-len-a`` × source + 10 tokens: robustness is measured
here, not quality, and this keeps it short); phase 2 sends
``--requests`` HTTP requests to ``fanyi serve`` on 127.0.0.1 over ``--connections`` keep-alive
connections: three in four well-formed, with such texts and valid options, so that they reach
decoding (``reached_decoding``: the share answered 200); the rest odd option values (``1e400``,
``NaN``, ``true``, huge integers), arbitrary JSON, and bytes that are not JSON. Counted: crashes
(exceptions, dropped connections), 5xx answers (each printed), answers by status and by kind. The service
runs with a long ``--timeout`` (300 s): on a busy 2-core machine a long repetition at beam 4
may take over the default 30 s, and a 503 for that is what benchmarks/serve_load.py is about. The last line is one JSON
object.

    python benchmarks/fuzz.py [-m MODEL] [--strings 10000] [--requests 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from common import emit, fanyi_server, machine
from fanyi import Translator
from fanyi.runtime import set_threads

POOLS = [
    [chr(c) for c in range(0x20, 0x7F)],  # ASCII
    [chr(c) for c in (*range(0x00, 0x20), *range(0x7F, 0xA0))],  # C0 and C1 controls
    [chr(c) for c in range(0xD800, 0xE000, 7)],  # lone surrogates
    ["\ufffe", "\uffff", "\U0010ffff", "\ufdd0", "\ue000", "\U000f0000"],  # non-characters, PUA
    ["😀", "👩‍👩‍👧", "🇨🇳", "\U0001f9ea", "𠀀", "𪚥"],  # astral, ZWJ sequences, Han extension B
    ["\u0301", "\u0338", "\u20dd", "e\u0301", "\u0e49"],  # combining marks
    ["مرحبا", "שלום", "\u202e", "\u202d", "\u200f"],  # right-to-left, bidi overrides
    ["\u200b", "\u200c", "\u200d", "\ufeff", "\u2028", "\u2029", "\u3000", "\xa0"],  # invisible
    ["<2en>", "<2zh>", "<2fr>", "</s>", "<s>", "<pad>", "<unk>", "▁", " ||| ", "\t", "\n", "\r"],
    list("我们明天去北京这本书很有意思你叫什么名字今天天气很好。，！？"),
    list("ＡＢＣ１２３ｶﾀｶﾅ㍻①Ⅻ"),  # what NFKC rewrites
]


def nasty_string(rng: random.Random, longest: int = 20) -> str:
    """Up to ``longest`` pieces from a few pools; now and then a long repetition."""
    if rng.random() < 0.03:
        return rng.choice(["的", "a ", "12", "\u0301", "😀", "<2en>"]) * rng.randint(20, 100)
    pools = rng.sample(POOLS, rng.randint(1, 3))
    return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(0, longest)))


ODD_VALUES = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1e308", "-0", "0", "2", "4"]
ODD_VALUES += ["9" * 40, "-1", "2.5", "true", "false", "null", '"4"', "[]", "{}", '"en"', '"zh"']


def nasty_json(rng: random.Random, depth: int = 0) -> object:
    """An arbitrary JSON value (strings from :func:`nasty_string`)."""
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return rng.choice([None, True, False, 0, -1, 2**70, 1.5, -0.0])
    if kind in (1, 2, 3):
        return nasty_string(rng, 8)
    if kind in (4, 5):
        return [nasty_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {nasty_string(rng, 8): nasty_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def valid_options(rng: random.Random) -> list[str]:
    """Options a client may send, each within the server's limits (JSON field texts)."""
    fields = []
    beam = rng.randint(1, 4)
    if rng.random() < 0.5:
        fields.append(f'"beam": {beam}')
    if rng.random() < 0.3:
        fields.append(f'"n_best": {rng.randint(1, beam)}')
    if rng.random() < 0.5:
        fields.append('"to": ' + rng.choice(["null", '"en"', '"zh"']))
    if rng.random() < 0.2:
        fields.append(f'"attention": {rng.choice(["true", "false"])}')
    return fields


def nasty_body(rng: random.Random) -> tuple[str, bytes]:
    """A request body and its kind: mostly a well-formed request whose texts are nasty and whose
    options are valid (so that it reaches decoding); some with odd option values, some
    arbitrary JSON, some bytes that are not JSON."""
    roll = rng.random()
    if roll < 0.05:
        return "bytes", rng.randbytes(rng.randint(0, 64))
    if roll < 0.12:
        return "json", json.dumps(nasty_json(rng)).encode()
    texts = [nasty_string(rng) for _ in range(rng.randint(1, 4))]
    texts = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]  # no lone surrogates
    fields = [f'"text": {json.dumps(texts)}']
    if roll < 0.25:
        kind = "odd_options"
        for key in rng.sample(["beam", "n_best", "to", "attention", "extra"], rng.randint(1, 3)):
            fields.append(f'"{key}": {rng.choice(ODD_VALUES)}')
    else:
        kind = "valid"
        fields += valid_options(rng)
    return kind, ("{" + ", ".join(fields) + "}").encode()


def fuzz_api(translator: Translator, count: int, longest: int, rng: random.Random) -> dict:
    """``count`` strings through the Python API, 200 at a time."""
    crashes, errors, expected_errors, done = 0, 0, 0, 0
    start = time.perf_counter()
    while done < count:
        texts = [nasty_string(rng, longest) for _ in range(min(200, count - done))]
        expected_errors += sum(any(0xD800 <= ord(c) < 0xE000 for c in t) for t in texts)
        try:
            results = translator.translate(texts, to=rng.choice([None, "en", "zh"]), beam=1)
            assert len(results) == len(texts) and all(isinstance(r.text, str) for r in results)
            errors += sum(r.error is not None for r in results)
        except Exception as error:  # a crash: what the benchmark counts
            crashes += 1
            print(f"crash: {type(error).__name__}: {error} on {texts!r}")
        done += len(texts)
    seconds = time.perf_counter() - start
    return {
        "strings": done,
        "crashes": crashes,
        "per_text_errors": errors,
        "expected_per_text_errors": expected_errors,
        "seconds": round(seconds, 1),
    }


def fuzz_http(url: str, count: int, connections: int, seed: int, patience: float) -> dict:
    """``count`` requests over ``connections`` keep-alive connections, in threads, each waiting
    ``patience`` seconds at most for an answer."""
    statuses: Counter = Counter()
    by_kind: Counter = Counter()  # (kind, status) of every answer
    crashes: list[str] = []
    address = urlsplit(url)

    def client(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        conn = http.client.HTTPConnection(address.hostname, address.port, timeout=patience)
        for _ in range(count // connections + (n < count % connections)):
            kind, body = nasty_body(rng)
            try:
                conn.request("POST", "/translate", body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                answer = response.read()
                statuses[response.status] += 1
                by_kind[kind, response.status] += 1
                if response.status >= 500:
                    crashes.append(f"{response.status} {answer[:80]!r} for {body[:80]!r}")
                if response.will_close:
                    crashes.append(f"the server closed the connection after {body[:80]!r}")
                    conn.close()
            except (OSError, http.client.HTTPException) as error:
                crashes.append(f"{type(error).__name__}: {error} after {body[:80]!r}")
                conn.close()
        conn.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(connections)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for crash in crashes[:20]:
        print(f"crash or 5xx: {crash}")
    server_errors = sum(n for status, n in statuses.items() if status >= 500)
    answered = sum(statuses.values())
    return {
        "reached_decoding": round(statuses[200] / max(answered, 1), 3),  # answered 200
        "by_kind": {f"{k} {s}": n for (k, s), n in sorted(by_kind.items())},
        "requests": sum(statuses.values()) + len(crashes) - server_errors,
        "crashes": len(crashes) - server_errors,
        "5xx": sum(n for status, n in statuses.items() if status >= 500),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "seconds": round(time.perf_counter() - start, 1),
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-m", "--model", help="model directory (default: bundled)")
    parser.add_argument("--strings", type=int, default=10_000, help="through the Python API")
    parser.add_argument("--requests", type=int, default=2000, help="HTTP requests")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="the service's --timeout: long, since a 503 for slowness is the load test's subject",
    )
    parser.add_argument("--longest", type=int, default=20, help="pieces per Python API string")
    parser.add_argument("--max-len-a", type=float, default=0.5, help="Python API output limit")
    parser.add_argument("--threads", type=int, default=1)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    # outputs cut short (robustness is measured here, not quality): a·|src| + 10 tokens at most
    set_threads(args.threads)
    translator = Translator.load(args.model, max_len_a=args.max_len_a, max_len_b=10)
    api = fuzz_api(translator, args.strings, args.longest, random.Random(args.seed))
    print(f"API: {api}")
    model = ["-m", args.model] if args.model else []
    settings = ["--threads", str(args.threads), "--timeout", str(args.timeout)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        fanyi_server(*model, *settings, log=Path(tmp) / "serve.log") as url,
    ):
        web = fuzz_http(url, args.requests, args.connections, args.seed, args.timeout + 60)
        alive = http.client.HTTPConnection(urlsplit(url).netloc, timeout=30)
        alive.request("GET", "/health")
        healthy = alive.getresponse().status == 200
    print(f"HTTP: {web}; healthy afterwards: {healthy}")
    emit(
        {
            "benchmark": "fuzz",
            "api": api,
            "http": web,
            "crashes": api["crashes"] + web["crashes"],
            "5xx": web["5xx"],
            "healthy_after": healthy,
            "settings": vars(args),
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

"""Benchmark: fuzzing the Python API and the HTTP API with what users (and attackers) send.

Strings mix every kind of character that has broken translators: control characters, lone
surrogates (what ``surrogateescape`` makes of bytes that are not UTF-8), noncharacters, private
use, astral emoji, combining marks, right-to-left text, zero-width and BOM characters, the
model's own special pieces (``<2en>``, ``</s>``, ``▁``), and long repetitions. Phase 1 sends
``--strings`` of them (up to ``--longest`` pieces each) through ``Translator.translations`` in
batches (greedy, outputs capped at ``--max-len-a`` × source + 10 tokens: robustness is measured
here, not quality, and this keeps it short); phase 2 sends ``--requests`` HTTP requests to
``fanyi serve`` on 127.0.0.1 over ``--connections`` keep-alive connections. Three in four are
well-formed: such texts, and a value of each field of the request model (``translate_request``:
every search and text option, the target prefixes, constraints and glossary, read from its JSON
schema, so that a new option is fuzzed without a line here), valid in type. The rest hold odd
values (``1e400``, ``NaN``, ``true``, huge integers, language codes of any length), arbitrary
JSON, and bytes that are not JSON. Counted: crashes (exceptions, dropped connections), 5xx
answers (each printed), answers by status and by kind, the fields that reached decoding (an
answer 200 with the field set), and the server's resident memory once idle after the first 100
requests and after all of them (``rss_growth``: their ratio). The service runs with a long
``--timeout`` (300 s): on a busy 2-core machine a long repetition at beam 4 may take over the
default 30 s, and a 503 for that is what benchmarks/serve_load.py is about. The last line is one
JSON object.

    python benchmarks/fuzz.py [-m MODEL] [--strings 10000] [--requests 3000] [--seed 1]
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
from dataclasses import dataclass, field
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


CODES = ["en", "zh", "zh-TW", "EN-us", "cmn", "zh-Hant"]  # codes of the model's languages
ODD_CODES = [json.dumps(code) for code in ["fr", "en-x-abcdefgh", "x" * 40, "", "zh-Latn"]]


def request_fields() -> dict[str, dict]:
    """Every field of the HTTP request but its texts, by its JSON name, with its JSON schema."""
    from fanyi.serve.schemas import translate_request

    properties = translate_request().model_json_schema()["properties"]
    return {name: schema for name, schema in properties.items() if name != "text"}


def schema_value(schema: dict, rng: random.Random, texts: int, name: str = "") -> object:
    """A value of the type the JSON ``schema`` names (within its bounds or not); a list has
    ``texts`` entries nine times in ten (a request has one target prefix per text ...)."""
    if "anyOf" in schema:
        kinds = [kind for kind in schema["anyOf"] if kind.get("type") != "null"]
        return schema_value(rng.choice(kinds), rng, texts, name)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "array" and "prefixItems" in schema:
        return [schema_value(item, rng, texts) for item in schema["prefixItems"]]
    if kind == "array":
        n = texts if rng.random() < 0.9 else rng.randint(0, 3)
        return [schema_value(schema.get("items", {}), rng, texts) for _ in range(n)]
    if kind == "object":
        value = schema_value(schema.get("additionalProperties", {}), rng, texts)
        return {rng.choice(["en", "zh"]): value}
    if kind == "string" and name in ("to", "from"):
        return rng.choice(CODES)
    if kind == "string":  # a prefix, a phrase, a term: Unicode text (a surrogate refuses it all)
        return nasty_string(rng, 6).encode("utf-8", "replace").decode("utf-8") or "x"
    simple = {
        "boolean": [True, False],
        "integer": [1, 1, 2],  # an id, a size, a seed: 0 and beyond are the odd values' part
        "number": [0.5, 0.9, 1.0],
    }
    return rng.choice(simple.get(kind, [None]))


def nasty_body(rng: random.Random, fields: dict[str, dict]) -> tuple[str, bytes, list[str]]:
    """A request body, its kind and the fields it sets: mostly a well-formed request whose texts
    are nasty (lone surrogates too: that text's error) and whose fields hold values of their
    types (so that it reaches decoding), some with odd values, some arbitrary JSON, some bytes
    that are not JSON."""
    roll = rng.random()
    if roll < 0.05:
        return "bytes", rng.randbytes(rng.randint(0, 64)), []
    if roll < 0.12:
        return "json", json.dumps(nasty_json(rng)).encode(), []
    texts = [nasty_string(rng) for _ in range(rng.randint(1, 4))]
    body: dict[str, object] = {"text": texts}
    if roll < 0.25:
        chosen = rng.sample([*fields, "extra"], rng.randint(1, 3))
        odd = ",".join(f'"{name}": {rng.choice(ODD_VALUES + ODD_CODES)}' for name in chosen)
        return "odd_options", (json.dumps(body)[:-1] + f", {odd}}}").encode(), chosen
    chosen = [name for name in fields if rng.random() < 0.15]
    body |= {name: schema_value(fields[name], rng, len(texts), name) for name in chosen}
    return "valid", json.dumps(body).encode(), chosen


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


@dataclass
class Tally:
    """What the HTTP fuzz counted: answers by status and by kind, crashes, and per field the
    requests that set it and those of them answered 200."""

    statuses: Counter = field(default_factory=Counter)
    by_kind: Counter = field(default_factory=Counter)  # (kind, status)
    crashes: list[str] = field(default_factory=list)
    sent: Counter = field(default_factory=Counter)
    decoded: Counter = field(default_factory=Counter)
    seconds: float = 0.0


def fuzz_http(
    url: str, count: int, connections: int, seed: int, patience: float, tally: Tally
) -> None:
    """``count`` requests over ``connections`` keep-alive connections, in threads, each waiting
    ``patience`` seconds at most for an answer; counted in ``tally``."""
    address, fields = urlsplit(url), request_fields()

    def client(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        conn = http.client.HTTPConnection(address.hostname, address.port, timeout=patience)
        for _ in range(count // connections + (n < count % connections)):
            kind, body, chosen = nasty_body(rng, fields)
            try:
                conn.request("POST", "/translate", body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                answer = response.read()
                counted(tally, kind, response.status, chosen)
                if response.status >= 500:
                    tally.crashes.append(f"{response.status} {answer[:80]!r} for {body[:80]!r}")
                if response.will_close:
                    tally.crashes.append(f"the server closed the connection after {body[:80]!r}")
                    conn.close()
            except (OSError, http.client.HTTPException) as error:
                tally.crashes.append(f"{type(error).__name__}: {error} after {body[:80]!r}")
                conn.close()
        conn.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(connections)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tally.seconds += time.perf_counter() - start


def counted(tally: Tally, kind: str, status: int, chosen: list[str]) -> None:
    tally.statuses[status] += 1
    tally.by_kind[kind, status] += 1
    tally.sent.update(chosen)
    if status == 200:
        tally.decoded.update(chosen)


def http_summary(tally: Tally, fields: list[str]) -> dict:
    """The HTTP fuzz's figures (crashes printed, the first 20)."""
    for crash in tally.crashes[:20]:
        print(f"crash or 5xx: {crash}")
    statuses = tally.statuses
    server_errors = sum(n for status, n in statuses.items() if status >= 500)
    answered = sum(statuses.values())
    return {
        "reached_decoding": round(statuses[200] / max(answered, 1), 3),  # answered 200
        "by_kind": {f"{k} {s}": n for (k, s), n in sorted(tally.by_kind.items())},
        "requests": answered + len(tally.crashes) - server_errors,
        "crashes": len(tally.crashes) - server_errors,
        "5xx": server_errors,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "fields": len(fields),
        "fields_decoded": sum(tally.decoded[name] > 0 for name in fields),
        "fields_never_decoded": [name for name in fields if not tally.decoded[name]],
        "seconds": round(tally.seconds, 1),
    }


def server_pid(url: str) -> int | None:
    """The process of the ``fanyi serve`` at ``url`` (Linux: its command line names its port)."""
    port = str(urlsplit(url).port).encode()
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and port in argv:
            return int(entry.name)
    return None


def idle_rss_mb(url: str, pid: int | None) -> float | None:
    """The server's resident memory (MB) once it has decoded nothing for 5 s (it hands freed
    memory back after 1 s idle); None where it cannot be read."""
    health = http.client.HTTPConnection(urlsplit(url).netloc, timeout=60)
    while True:
        health.request("GET", "/health")
        state = json.loads(health.getresponse().read())
        if not state["busy"] and not state["waiting"]:
            break
        time.sleep(1)
    health.close()
    time.sleep(5)
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (OSError, TypeError):
        return None
    kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    return round(kb / 1024, 1)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-m", "--model", help="model directory (default: bundled)")
    parser.add_argument("--strings", type=int, default=10_000, help="through the Python API")
    parser.add_argument("--requests", type=int, default=3000, help="HTTP requests")
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


def serve_fuzz(args: argparse.Namespace) -> dict:
    """Phase 2: the HTTP fuzz against ``fanyi serve``, its memory read once idle after the first
    100 requests and after all of them."""
    model = ["-m", args.model] if args.model else []
    settings = ["--threads", str(args.threads), "--timeout", str(args.timeout)]
    tally, patience, first = Tally(), args.timeout + 60, min(100, args.requests)
    with (
        tempfile.TemporaryDirectory() as tmp,
        fanyi_server(*model, *settings, log=Path(tmp) / "serve.log") as url,
    ):
        pid = server_pid(url)
        fuzz_http(url, first, args.connections, args.seed, patience, tally)
        early = idle_rss_mb(url, pid)
        rest = args.requests - first
        fuzz_http(url, rest, args.connections, args.seed + 1_000_000, patience, tally)
        late = idle_rss_mb(url, pid)
        alive = http.client.HTTPConnection(urlsplit(url).netloc, timeout=30)
        alive.request("GET", "/health")
        healthy = alive.getresponse().status == 200
    web = http_summary(tally, list(request_fields()))
    growth = round(late / early, 3) if early and late else None
    return {
        **web,
        "rss_mb_after_100": early,
        "rss_mb_after_all": late,
        "rss_growth": growth,
        "healthy_after": healthy,
    }


def main() -> None:
    args = parse_args()
    # outputs cut short (robustness is measured here, not quality): a·|src| + 10 tokens at most
    set_threads(args.threads)
    translator = Translator.load(args.model, max_len_a=args.max_len_a, max_len_b=10)
    api = fuzz_api(translator, args.strings, args.longest, random.Random(args.seed))
    print(f"API: {api}")
    web = serve_fuzz(args)
    print(f"HTTP: {web}")
    emit(
        {
            "benchmark": "fuzz",
            "api": api,
            "http": web,
            "crashes": api["crashes"] + web["crashes"],
            "5xx": web["5xx"],
            "healthy_after": web["healthy_after"],
            "rss_growth": web["rss_growth"],
            "settings": vars(args),
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

"""Scheduling in the HTTP service: a long request does not hold up short ones, a request that times
out or whose client goes away stops being decoded, /health shows the work in hand, limits count
tokens; and, with the bundled model, a small version of benchmarks/serve_load.py."""

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx
import pytest

from fanyi import Translator
from fanyi.decode import Cancelled
from fanyi.serve import Limits, create_app
from tiny_translator import running_server, tiny_model_dir

HEAVY_STEPS = 4000


@pytest.fixture(scope="module")
def translator(tmp_path_factory) -> Translator:
    return Translator.load(tiny_model_dir(tmp_path_factory), beam=2)


def stepping(translator: Translator) -> Translator:
    """The translator, with a search that takes HEAVY_STEPS steps of 5 ms for a batch holding
    the word "heavy" and 3 otherwise, running the step hook before each; ``stopped`` records
    at which step cancelled searches stopped."""
    spy = Translator.__new__(Translator)
    spy.__dict__.update(translator.__dict__)
    spy.stopped = []

    def translate(texts, to, options, between_steps, **held):
        for step in range(HEAVY_STEPS if any("heavy" in t.text for t in texts) else 3):
            try:
                between_steps()
            except Cancelled:
                spy.stopped.append(step)
                raise
            time.sleep(0.005)
        return translator.translate(texts, to, options, **held)

    spy.translate = translate
    return spy


def wait_until(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.01)


def post_raw(url: str, body: bytes) -> socket.socket:
    """Send a translate request on a fresh connection without reading the answer."""
    address = urlsplit(url)
    sock = socket.create_connection((address.hostname, address.port))
    head = "POST /translate HTTP/1.1\r\nHost: fanyi\r\nContent-Type: application/json\r\n"
    sock.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
    return sock


def answered(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return bool(sock.recv(1, socket.MSG_PEEK))
    except BlockingIOError:
        return False


def test_short_requests_pass_a_long_one_which_stops_when_its_client_leaves(translator):
    spy = stepping(translator)
    with (
        running_server(create_app(spy, Limits(timeout=600))) as url,
        httpx.Client(base_url=url, timeout=60) as http,
    ):
        heavy = post_raw(url, b'{"text": ["heavy"]}')
        wait_until(lambda: http.get("/health").json()["busy"])
        for i in range(5):
            assert http.post("/translate", json={"text": [f"light {i}"]}).status_code == 200
        health = http.get("/health").json()
        assert not answered(heavy) and health["decoding"] == 1 and health["decoding_s"] > 0
        heavy.close()
        wait_until(lambda: spy.stopped)
        assert spy.stopped[0] < HEAVY_STEPS
        wait_until(lambda: not http.get("/health").json()["busy"])


def test_a_request_that_times_out_stops_being_decoded(translator):
    spy = stepping(translator)
    with (
        running_server(create_app(spy, Limits(timeout=0.5))) as url,
        httpx.Client(base_url=url, timeout=60) as http,
    ):
        response = http.post("/translate", json={"text": ["heavy"]})
        assert response.status_code == 503 and "within 0.5 s" in response.json()["detail"]
        wait_until(lambda: spy.stopped)
        assert spy.stopped[0] < HEAVY_STEPS
        assert http.post("/translate", json={"text": ["light"]}).status_code == 200
        wait_until(lambda: not http.get("/health").json()["busy"])


def test_limits_count_tokens(translator):
    app = create_app(translator, Limits(max_tokens=12))
    with running_server(app) as url, httpx.Client(base_url=url, timeout=60) as http:
        assert http.post("/translate", json={"text": ["我很好。"]}).status_code == 200
        response = http.post("/translate", json={"text": ["我很好。" * 2, "他在哪里？"]})
        assert response.status_code == 413 and "tokens; at most 12" in response.json()["detail"]


DIGITS = "1234567890" * 100  # the bundled model decodes this for about a minute at beam 8
LIGHT = ["你好。", "Where is the station?", "这本书很有意思。", "Thank you.", "我们明天去北京。"]


def test_light_requests_keep_being_served_beside_a_heavy_one():
    app = create_app(Translator.load(), Limits(timeout=600))
    with running_server(app) as url:
        heavy = post_raw(url, json.dumps({"text": [DIGITS, DIGITS], "beam": 8}).encode())

        def client(n: int) -> list[int]:
            with httpx.Client(base_url=url, timeout=60) as http:
                wait_until(lambda: http.get("/health").json()["busy"])
                return [
                    http.post("/translate", json={"text": [LIGHT[(n + i) % 5]]}).status_code
                    for i in range(5)
                ]

        with ThreadPoolExecutor(4) as pool:
            statuses = [s for result in pool.map(client, range(4)) for s in result]
        assert statuses == [200] * 20 and not answered(heavy)
        heavy.close()
        with httpx.Client(base_url=url, timeout=60) as http:
            wait_until(lambda: not http.get("/health").json()["busy"])

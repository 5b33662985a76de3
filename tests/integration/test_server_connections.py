"""Connections nobody can hold open: a running server closes one that sends nothing, one that
sends its request too slowly and one that idles after an answer, and never one whose request
is being decoded. Each test waits for the close with a generous bound, never a tight one."""

import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from fanyi import Translator
from fanyi.serve import Limits, create_app
from fanyi.serve.connections import connection_settings
from tiny_translator import running_server, tiny_model_dir

LIMITS = Limits(read_timeout=0.5, keep_alive=0.5)
PATIENCE = 60.0  # seconds a test waits for the server to close a connection


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    translator = Translator.load(tiny_model_dir(tmp_path_factory), beam=2)
    with running_server(create_app(translator, LIMITS), **connection_settings(LIMITS)) as url:
        yield url


def connect(url: str) -> socket.socket:
    address = urlsplit(url)
    conn = socket.create_connection((address.hostname, address.port), timeout=PATIENCE)
    return conn


def closed(conn: socket.socket) -> bool:
    """Whether the server closes ``conn`` (within PATIENCE): what it sends first is read."""
    try:
        while conn.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    finally:
        conn.close()
    return True


def test_a_connection_that_sends_nothing_is_closed(url):
    assert closed(connect(url))


def test_a_request_head_sent_too_slowly_is_cut_off(url):
    conn = connect(url)
    conn.sendall(b"POST /translate HTTP/1.1\r\nHost: test\r\n")  # and never the rest
    assert closed(conn)


def test_a_body_sent_too_slowly_is_cut_off(url):
    conn = connect(url)
    head = b"POST /translate HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
    conn.sendall(head + b"Content-Length: 100\r\n\r\n" + b'{"text": [')
    assert closed(conn)


def test_a_connection_idle_after_its_answer_is_closed(url):
    conn = connect(url)
    conn.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
    assert conn.recv(65536).startswith(b"HTTP/1.1 200")  # answered, kept alive, then closed
    assert closed(conn)


def test_many_idle_connections_are_all_closed(url):
    conns = [connect(url) for _ in range(50)]
    assert all(closed(conn) for conn in conns)
    assert httpx.get(f"{url}/health", timeout=PATIENCE).status_code == 200


def test_a_request_that_decodes_longer_than_the_read_timeout_is_answered(tmp_path_factory):
    translator = Translator.load(tiny_model_dir(tmp_path_factory), beam=2)
    slow = Translator.__new__(Translator)
    slow.__dict__.update(translator.__dict__)

    def translate(*args, **kwargs):
        time.sleep(4 * LIMITS.read_timeout)  # the request arrived long before: never cut off
        return translator.translate(*args, **kwargs)

    slow.translate = translate
    with (
        running_server(create_app(slow, LIMITS), **connection_settings(LIMITS)) as url,
        httpx.Client(base_url=url, timeout=PATIENCE) as http,
    ):
        response = http.post("/translate", json={"text": ["我很好。"]})
        assert response.status_code == 200, response.text
        assert response.json()["translations"][0]["text"] == translator("我很好。")

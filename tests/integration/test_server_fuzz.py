"""Fuzzing the HTTP API over one keep-alive connection: whatever the body (any JSON, any Unicode
text, lone surrogates, non-finite numbers, bytes that are not JSON), the answer is never a 5xx
and the same connection answers the next request."""

import http.client
import json
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fanyi import Translator
from fanyi.serve import Limits, create_app
from tiny_translator import running_server, tiny_model_dir

pytestmark = pytest.mark.slow  # fuzzes a server

LIMITS = Limits(max_chars=200, max_texts=8, max_body=20_000, max_beam=4)
TEXT = st.text(st.characters(exclude_categories=()), max_size=30)  # lone surrogates included
ODD_VALUES = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1e308", "-0", "0", "1", "2"]
NUMBER = st.sampled_from(
    [*ODD_VALUES, "2.5", "4", "-1", "true", "null", "[]", "{}", '"2"', "9" * 30]
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
OPTION = st.sampled_from(["beam", "n_best", "attention", "to", "extra"])


@st.composite
def request_bodies(draw) -> bytes:
    """A translate request, mostly well-formed, with odd texts and odd option values."""
    texts = draw(st.lists(TEXT, max_size=4) | JSON)
    fields = [f'"text": {json.dumps(texts)}']
    for option in draw(st.lists(OPTION, max_size=3)):
        value = draw(NUMBER | st.sampled_from(['"en"', '"zh"', '"fr"', "false"]))
        fields.append(f'"{option}": {value}')
    return ("{" + ", ".join(fields) + "}").encode()


BODIES = request_bodies() | JSON.map(lambda v: json.dumps(v).encode()) | st.binary(max_size=64)


@pytest.fixture(scope="module")
def connection(tmp_path_factory):
    translator = Translator.load(tiny_model_dir(tmp_path_factory), beam=2)
    with running_server(create_app(translator, LIMITS)) as url:
        address = urlsplit(url)
        conn = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        conn.connect()
        conn.auto_open = 0  # a connection the server closed raises instead of reopening
        yield conn
        conn.close()


def exchange(conn: http.client.HTTPConnection, method: str, body: bytes | None = None) -> int:
    path = "/translate" if method == "POST" else "/health"
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    return response.status


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=BODIES)
def test_no_body_gets_a_5xx_and_the_connection_stays_open(connection, body):
    assert exchange(connection, "POST", body) < 500
    assert exchange(connection, "GET") == 200

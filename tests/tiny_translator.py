"""Shared by the translation, server and web-page tests: tiny bidirectional models (zh⇄en on
Tatoeba, de⇄en on Multi30k: trained once per test run for a few dozen steps on the first lines of
the corpus; their output is gibberish, their interfaces real), a uvicorn server running an app
in a thread, and one request to an app without a server."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from conftest import corpora
from fanyi.config import load_yaml, override
from fanyi.data import DataConfig
from fanyi.data.build import prepare
from fanyi.model_dir import resolve
from fanyi.train import TrainConfig, train

REPO = Path(__file__).resolve().parents[1]
MAX_LEN = 64  # positions: small, so that long inputs are easy to make


def _train_tiny(root: Path, data_config: str, data: dict, steps: int) -> Path:
    """Prepare ``data_config`` with ``data`` on top into ROOT/data, train the tiny model."""
    recipe = load_yaml(DataConfig, REPO / "configs" / "data" / data_config)
    prepare(override(recipe, {**data, "out_dir": str(root / "data")}))
    tiny = load_yaml(TrainConfig, REPO / "configs" / "train" / "tiny.yaml")
    run = {
        "data_dir": str(root / "data"),
        "out_dir": str(root / "run"),
        "progress": False,
        "max_steps": steps,
        "validate_every": steps,
        "valid_bleu": False,
        "best_metric": "loss",
        "model": dataclasses.replace(tiny.model, max_len=MAX_LEN),
    }
    return resolve(train(override(tiny, run)))


def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny zh⇄en model's directory, trained on first use in a test run."""
    root = tmp_path_factory.getbasetemp() / "tiny-zh-en"
    if (root / "run" / "checkpoints.json").is_file():
        return resolve(root / "run")
    data = {
        "train": str(corpora() / "tatoeba-cmn-eng" / "cmn.txt"),
        "limit": 1500,
        "dev_size": 20,
        "test_size": 20,
        "vocab_size": 1000,
        "character_coverage": 0.98,
    }
    return _train_tiny(root, "tatoeba-bi.yaml", data, steps=40)


def tiny_de_en_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny de⇄en model (both directions, <2de>/<2en> tags) on the first Multi30k pairs."""
    root = tmp_path_factory.getbasetemp() / "tiny-de-en"
    if (root / "run" / "checkpoints.json").is_file():
        return resolve(root / "run")
    data = {
        "train": str(corpora() / "multi30k" / "train"),
        "dev": None,
        "test": None,
        "limit": 1000,
        "dev_size": 20,
        "test_size": 20,
        "vocab_size": 600,
        "bidirectional": True,
        "lang_tags": True,
    }
    return _train_tiny(root, "multi30k-de-en.yaml", data, steps=20)


def post(app, body=None, content=None, headers=None) -> httpx.Response:
    """One request to ``app`` through httpx's ASGI transport."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post("/translate", json=body, content=content, headers=headers)

    return asyncio.run(send())


@contextmanager
def running_server(app: object, **settings: object) -> Iterator[str]:
    """Serve ``app`` with uvicorn (and its ``settings``) on a free localhost port in a thread;
    yields its base URL."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", **settings)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()

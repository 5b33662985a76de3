"""Shared by the translation, server and web-page tests: a tiny zh⇄en model (trained once per
session for a few dozen steps on a Tatoeba slice; its output is gibberish, its interfaces real)
and a uvicorn server running an app in a thread."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from fanyi.config import load_yaml, override
from fanyi.data import DataConfig, prepare
from fanyi.train import TrainConfig, resolve, train

REPO = Path(__file__).resolve().parents[1]
MAX_LEN = 64  # positions: small, so that long inputs are easy to make


def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny bidirectional model's directory, trained on first use in this session."""
    root = tmp_path_factory.getbasetemp() / "tiny-zh-en"
    if (root / "run" / "checkpoints.json").is_file():
        return resolve(root / "run")
    corpus = Path(os.environ.get("FANYI_DATA", REPO.parent / "shared" / "data"))
    corpus = corpus / "tatoeba-cmn-eng" / "cmn.txt"
    if not corpus.is_file():
        pytest.skip(f"Tatoeba not found at {corpus} (set FANYI_DATA)")
    recipe = load_yaml(DataConfig, REPO / "configs" / "data" / "tatoeba-bi.yaml")
    data = {
        "train": str(corpus),
        "limit": 1500,
        "dev_size": 20,
        "test_size": 20,
        "vocab_size": 1000,
        "character_coverage": 0.98,
        "out_dir": str(root / "data"),
    }
    prepare(override(recipe, data))
    tiny = load_yaml(TrainConfig, REPO / "configs" / "train" / "tiny.yaml")
    run = {
        "data_dir": str(root / "data"),
        "out_dir": str(root / "run"),
        "progress": False,
        "max_steps": 40,
        "validate_every": 40,
        "valid_bleu": False,
        "best_metric": "loss",
        "threads": 1,
        "model": {**tiny.model, "max_len": MAX_LEN},
    }
    return resolve(train(override(tiny, run)))


@contextmanager
def running_server(app: object) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free localhost port in a thread; yields its base URL."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
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

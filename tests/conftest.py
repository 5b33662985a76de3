"""Shared test settings: one intra-op thread (the machine has two cores shared by everything),
where the corpora are, and a local HTTP server for the download tests (none reaches the network)."""

import http.server
import json
import os
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path

import pytest
import torch

torch.set_num_threads(1)

REPO = Path(__file__).resolve().parents[1]
FIXTURE_CORPORA = REPO / "tests" / "fixtures" / "data"  # slices of both corpora (README.md there)


def corpora() -> Path:
    """``$FANYI_DATA`` (default ../shared/data) when it holds both corpora, else the slices in
    tests/fixtures/data. Tests read only the first lines of a corpus, which the slices hold
    unchanged, so either gives the same results (scripts/make_test_slices.py)."""
    shared = Path(os.environ.get("FANYI_DATA") or REPO.parent / "shared" / "data")
    needed = ("tatoeba-cmn-eng/cmn.txt", "multi30k/train.de", "multi30k/train.en")
    return shared if all((shared / name).is_file() for name in needed) else FIXTURE_CORPORA


def run_benchmark(name: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run benchmarks/NAME from the repository root as a user would; its output as text. No time
    limit: a loaded machine may take any time."""
    return subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / name), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )


def benchmark_on_rows(
    command: str, sources: Path, source: str, rows: list[tuple[str, str]], *args: str
) -> dict:
    """Run ``command`` (benchmarks/NAME and its measure, "search.py length"; then ``args``) on a
    ``fanyi data`` folder ``sources`` whose ``source`` has a dev split of ``rows`` (English,
    Chinese); the figures of its JSON line."""
    (sources / source).mkdir()
    lines = "".join(f"{en}\t{zh}\t{source}\n" for en, zh in rows)
    (sources / source / "dev.tsv").write_text(lines, encoding="utf-8")
    name, *measure = command.split()
    done = run_benchmark(name, *measure, "--sources", str(sources), *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--device",
        default=os.environ.get("FANYI_TEST_DEVICE"),
        help="where the device tier runs (cpu, cuda, cuda:N; default $FANYI_TEST_DEVICE, else "
        "cuda where there is a GPU, else cpu)",
    )


@pytest.fixture(scope="session")
def device(request: pytest.FixtureRequest) -> str:
    """The device the decode, train, evaluate and serve integration tests run on: a GPU where
    there is one, so that the same tests check it (``--device`` or ``$FANYI_TEST_DEVICE`` to
    choose)."""
    chosen = request.config.getoption("--device")
    return chosen or ("cuda" if torch.cuda.is_available() else "cpu")


@pytest.fixture(autouse=True)
def one_thread():
    """Every test starts on one thread: a command run in-process sets the process's threads
    (``--threads``, default every core), and results computed on two threads differ in the last
    bits from those of a subprocess on one."""
    torch.set_num_threads(1)
    yield


@pytest.fixture(autouse=True, scope="session")
def dtype_cache(tmp_path_factory) -> Path:
    """dtype auto's timed choices go to the test session's own cache, never the user's, so no
    choice made before the tests decides one in them (subprocesses inherit it)."""
    path = tmp_path_factory.mktemp("fanyi-cache")
    os.environ["FANYI_CACHE"] = str(path)
    return path


@pytest.fixture
def data_dir(monkeypatch) -> Path:
    """The corpora folder, also as ``$FANYI_DATA`` for configs that name ``${FANYI_DATA}``."""
    path = corpora()
    monkeypatch.setenv("FANYI_DATA", str(path))
    return path


@pytest.fixture(scope="session")
def bundled_test_pairs() -> list[tuple[str, str]]:
    """The bundled model's 1,000 held-out test pairs (Chinese, English), cleaned as ``fanyi
    prepare`` cleans them: the test split of its own data config, kept as their original Tatoeba
    lines in tests/fixtures/data (scripts/make_test_slices.py)."""
    import yaml

    from fanyi.data import DataConfig
    from fanyi.ensemble_dir import first_member
    from fanyi.text.lang import Normalizer
    from fanyi.translate.model_names import TATOEBA

    sections = yaml.safe_load((first_member(TATOEBA) / "config.yaml").read_text(encoding="utf-8"))
    config = DataConfig(**sections["data"])
    zh, en = (Normalizer(lang, config.nfkc, config.t2s) for lang in ("zh", "en"))
    lines = (FIXTURE_CORPORA / "tatoeba-cmn-eng" / "bundled-test.txt").read_text(encoding="utf-8")
    columns = [line.split("\t") for line in lines.splitlines()]
    return [(zh(c[config.columns["zh"]]), en(c[config.columns["en"]])) for c in columns]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without a log line per request."""

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server(tmp_path):
    """(folder served, base URL) of an HTTP server on 127.0.0.1."""
    root = tmp_path / "served"
    root.mkdir()
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(_QuietHandler, directory=str(root))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()

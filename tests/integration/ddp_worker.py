"""The DDP tests' torchrun worker, and how they start torchrun: on one machine (``--standalone``)
or as several "machines", one torchrun invocation each, meeting at a c10d rendezvous on
127.0.0.1 (``--nnodes``), as on a cluster.

Run by torchrun, ``ddp_worker.py CONFIG.json [RESUME]`` joins the job as ``fanyi train`` does,
trains (continuing run RESUME if given), then each rank writes its parameters to
``OUT/rank-R.safetensors`` and the example indices of the batches it trained on, by epoch, to
``OUT/batches-R.json``.
"""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def environment() -> dict[str, str]:
    """One thread per process; the worker imports the tests' helpers; no tcmalloc re-exec."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": path, "FANYI_TCMALLOC": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(command: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """``torchrun COMMAND`` in the background (``env`` added to its environment), its output
    into ``log``."""
    with open(log, "w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "torch.distributed.run", *command],
            env={**environment(), **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def start_machines(
    commands: list[list[str]], logs: Path, gpus: bool = False
) -> list[subprocess.Popen]:
    """One torchrun per command (what follows torchrun's own flags), each a machine of one job
    with one process (machine I sees GPU I only, with ``gpus``); their output in
    ``logs/machine-I.log``."""
    logs.mkdir(parents=True, exist_ok=True)
    rendezvous = [
        f"--nnodes={len(commands)}",
        "--nproc-per-node=1",
        "--rdzv-backend=c10d",
        f"--rdzv-endpoint=127.0.0.1:{free_port()}",
        "--rdzv-id=test",
    ]
    return [
        start(
            [*rendezvous, *c],
            logs / f"machine-{i}.log",
            {"CUDA_VISIBLE_DEVICES": str(i)} if gpus else None,
        )
        for i, c in enumerate(commands)
    ]


def finish(processes: list[subprocess.Popen], logs: Path, timeout: float = 180) -> list[int]:
    """Wait for every torchrun; their exit codes (all killed, and their output shown, if time
    runs out)."""
    deadline = time.monotonic() + timeout
    try:
        return [p.wait(timeout=max(0.0, deadline - time.monotonic())) for p in processes]
    except subprocess.TimeoutExpired:
        for process in processes:
            kill_machine(process.pid)
        output = "\n".join(log.read_text()[-2000:] for log in sorted(logs.glob("*.log")))
        raise AssertionError(f"torchrun did not end in {timeout} s:\n{output}") from None


def run_machines(commands: list[list[str]], logs: Path, gpus: bool = False) -> None:
    """A job on ``len(commands)`` machines, which must succeed."""
    codes = finish(start_machines(commands, logs, gpus), logs)
    assert codes == [0] * len(commands), "\n".join(
        p.read_text()[-3000:] for p in logs.glob("*.log")
    )


def kill_machine(pid: int) -> None:
    """SIGKILL process ``pid`` and every process under it, as when a machine dies (torchrun's
    workers run in their own process session, so a process group would miss them)."""
    pids, todo = [], [pid]
    while todo:
        pids.append(todo.pop())
        for children in Path(f"/proc/{pids[-1]}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in children.read_text().split()]
    for each in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(each, signal.SIGKILL)


@contextlib.contextmanager
def recording(batches: dict[int, list[list[int]]]) -> Iterator[None]:
    """Record the example indices of every batch the trainer takes, under its epoch."""
    from fanyi.train import trainer

    real = trainer.batch_stream

    def stream(*args):
        for epoch, position, indices in real(*args):
            batches.setdefault(epoch, []).append(indices)
            yield epoch, position, indices

    trainer.batch_stream = stream
    try:
        yield
    finally:
        trainer.batch_stream = real


def _worker(config_file: str, resume: str | None) -> None:
    """torchrun entry point: join the job as `fanyi train` does, train, save this rank's
    parameters and batches."""
    from safetensors.torch import save_file

    from fanyi import runtime
    from fanyi.config import from_dict
    from fanyi.model_dir import model_tensors
    from fanyi.train import TrainConfig, Trainer

    cfg = from_dict(TrainConfig, json.loads(Path(config_file).read_text()))
    batches: dict[int, list[list[int]]] = {}
    with recording(batches), runtime.training_process(cfg.device, threads=1) as device:
        trainer = Trainer(cfg, resume, device=device)
        trainer.run()
        rank, out = trainer.ctx.dist.rank, Path(cfg.out_dir)
        save_file(model_tensors(trainer.ctx.model)[0], out / f"rank-{rank}.safetensors")
        (out / f"batches-{rank}.json").write_text(json.dumps(batches))


if __name__ == "__main__":
    _worker(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)

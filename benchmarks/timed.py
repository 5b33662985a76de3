"""Wall and CPU seconds of a command on a file of lines: ``shipped.py``'s runs."""

from __future__ import annotations

import itertools
import resource
import subprocess
import time
from pathlib import Path


def timed(command: list[str], source: Path, output: Path) -> tuple[float, float]:
    """Seconds and CPU seconds (user and system) ``command`` takes on the lines of ``source``
    (``-i FILE``; the peer's stdin), writing ``output``; a failure stops the benchmark with the
    command's stderr."""
    on_stdin = command[-1] == "--input"
    argv = command[:-1] if on_stdin else [*command, str(source)]
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    with source.open("rb") as stdin, output.open("wb") as stdout:
        done = subprocess.run(
            argv,
            stdin=stdin if on_stdin else subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )
    seconds, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu


def timed_apart(command: list[str], source: Path, output: Path, parts: int) -> tuple[float, float]:
    """``timed`` for ``parts`` copies of ``command`` at once, each on every ``parts``-th line of
    ``source`` (a line's translation never depends on its neighbours); their outputs are dealt
    back into ``output`` in the lines' order."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    shares = [(output.with_name(f"{output.name}.{i}.in"), output.with_name(f"{output.name}.{i}"))
              for i in range(parts)]  # fmt: skip
    for i, (share, _) in enumerate(shares):
        share.write_text("".join(lines[i::parts]), encoding="utf-8")
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    running = []
    for share, out in shares:
        with out.open("wb") as stdout:
            running.append(
                subprocess.Popen(
                    [*command, str(share)],
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
    errors = [(p, p.communicate()[1]) for p in running]
    seconds, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if failed := [error for p, error in errors if p.returncode != 0]:
        raise SystemExit(f"{' '.join(command)} failed:\n{failed[0]}")
    outputs = [out.read_text(encoding="utf-8").splitlines(keepends=True) for _, out in shares]
    dealt_back = itertools.chain.from_iterable(itertools.zip_longest(*outputs, fillvalue=""))
    output.write_text("".join(dealt_back), encoding="utf-8")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu

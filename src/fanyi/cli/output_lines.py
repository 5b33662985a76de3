"""Where ``fanyi translate`` writes its lines: stdout, or ``-o FILE``, claimed before the model
loads (an existing file only with ``--overwrite``), each line written as soon as it and those
before it are done. With ``--resume`` an existing ``-o`` is continued: the inputs it already
holds (its complete lines) are skipped, a line cut short by a kill is dropped."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TextIO

from ..outputs import claim_file

N_BEST_LINE = re.compile(rb"(\d+) \|\|\| ")  # "i ||| translation ||| score"


def claim_output(args: argparse.Namespace) -> Path | None:
    """``-o``'s path, checked before any work: a file that exists needs ``--overwrite`` or
    ``--resume``."""
    if not args.output:
        return None
    resume = args.resume and Path(args.output).exists()
    return claim_file(args.output, args.overwrite or resume)


def open_output(path: Path | None, resume: bool, n_best: int) -> tuple[TextIO, int]:
    """The output to write to, and how many inputs it holds already (with ``resume``)."""
    if path is None:
        if hasattr(sys.stdout, "reconfigure"):  # UTF-8 whatever the locale says
            sys.stdout.reconfigure(encoding="utf-8")
        return sys.stdout, 0
    if not (resume and path.exists()):
        return open(path, "w", encoding="utf-8"), 0
    done = finished_inputs(path, n_best)
    return open(path, "a", encoding="utf-8"), done


def finished_inputs(path: Path, n_best: int) -> int:
    """The inputs whose translations ``path`` holds in complete lines; the file is cut after
    its last complete line (a line a kill cut short is translated again)."""
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(complete))
    lines = complete.splitlines()
    if n_best == 1:
        return len(lines)
    last = N_BEST_LINE.match(lines[-1]) if lines else None
    return int(last.group(1)) + 1 if last else 0

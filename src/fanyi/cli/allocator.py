"""The memory allocator the heavy commands run under: tcmalloc where the system has it.

On Linux, ``fanyi train``, ``translate``, ``evaluate``, ``tune``, ``distill`` and ``serve``
re-execute themselves with tcmalloc preloaded when Debian's ``libtcmalloc-minimal4`` is
installed. glibc malloc returns large buffers to the kernel and page-faults them back: it spent a
fifth of a CPU training step doing so (tcmalloc: steps 13–31% faster, docs/training.md), and
decoding allocates a vocabulary-sized array every step (tcmalloc: 4–13% faster,
docs/decoding.md). Set ``FANYI_TCMALLOC=0`` to keep glibc malloc.

On a GPU they run with PyTorch's CUDA caching allocator in expandable segments unless
``PYTORCH_CUDA_ALLOC_CONF`` says otherwise: token batches change shape at every step, and with a
new shape every step expandable segments trained 1.38× the target tokens/s of the default
(an H100, ``benchmarks/gpu.py --varied``, docs/gpu.md).
"""

from __future__ import annotations

import os
import sys

TCMALLOC_ENV = "FANYI_TCMALLOC"
CUDA_ALLOC_ENV = "PYTORCH_CUDA_ALLOC_CONF"
EXPANDABLE = "expandable_segments:True"
COMMANDS = {"train", "translate", "po", "evaluate", "tune", "distill", "serve"}


def tcmalloc_library() -> str | None:
    """The tcmalloc shared library's name if the system has it (``libtcmalloc_minimal.so.4``)."""
    import ctypes.util  # here: importing it takes 12 ms, and most starts need no lookup

    return ctypes.util.find_library("tcmalloc_minimal") or ctypes.util.find_library("tcmalloc")


def expandable_cuda_segments() -> None:
    """Ask for expandable segments of the CUDA caching allocator (read when CUDA first allocates),
    unless the user set their own ``PYTORCH_CUDA_ALLOC_CONF``."""
    os.environ.setdefault(CUDA_ALLOC_ENV, EXPANDABLE)


def reexec_with_tcmalloc(argv: list[str] | None = None) -> None:
    """Replace this process by itself (or by ``argv``: a script's own command line) with tcmalloc
    preloaded, unless opted out or present."""
    preload = os.environ.get("LD_PRELOAD", "")
    if os.environ.get(TCMALLOC_ENV, "1") == "0" or "tcmalloc" in preload:
        return
    library = tcmalloc_library()  # after the checks: looking takes ms (ldconfig -p)
    if library is None:
        return
    env = {**os.environ, "LD_PRELOAD": f"{library} {preload}".strip(), TCMALLOC_ENV: "1"}
    sys.stdout.flush()
    sys.stderr.flush()
    argv = argv or _own_command_line()
    os.execve(sys.executable, argv, env)


def _own_command_line() -> list[str]:
    """This process's command line as it was started (the ``fanyi`` script, or ``python -m
    fanyi``), where it ends in the command's arguments, else ``python -m fanyi …``: the script
    re-executed as ``-m fanyi`` took 0.1 CPU s more to start."""
    started, args = list(getattr(sys, "orig_argv", [])), sys.argv[1:]
    if len(started) >= 2 + len(args) and started[len(started) - len(args) :] == args:
        return [sys.executable, *started[1:]]
    return [sys.executable, "-m", "fanyi", *args]

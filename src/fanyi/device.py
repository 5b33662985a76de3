"""The device a model runs on: the one a user names (``--device``); whether bf16 arithmetic has
hardware there is ``precision.bf16_native``'s answer.

One definition for every command and the Python API: ``cpu``, ``cuda``, ``cuda:N``, ``mps`` or
``auto`` (a GPU where there is one), refused with one line where this machine lacks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

DEVICES = "cpu, cuda, cuda:N or auto"  # what --device takes, as its help and errors say


def resolve_device(name: str | torch.device) -> torch.device:
    """The torch device ``name`` names (``auto``: the first GPU if there is one, else the CPU);
    a one-line ``ValueError`` for one this machine does not have."""
    import torch  # here: DEVICES is read without it (the flags' help)

    if name == "auto":
        name = "cuda:0" if torch.cuda.is_available() else "cpu"
    try:
        device = torch.device(name)
    except RuntimeError:
        device = None
    if device is None or device.type not in ("cpu", "cuda", "mps"):
        raise ValueError(f"{str(name)!r} is not a device fanyi runs on ({DEVICES})")
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise ValueError(f"{str(name)!r}: CUDA is not available on this machine")
        if device.index is not None and device.index >= count:
            raise ValueError(f"{str(name)!r}: this machine has {count} CUDA device(s)")
    if device.type == "mps" and not torch.backends.mps.is_available():
        raise ValueError(f"{str(name)!r}: MPS is not available on this machine")
    return device

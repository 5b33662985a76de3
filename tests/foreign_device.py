"""Catch a tensor made on the wrong device without a GPU.

Inside ``foreign_device()`` a tensor that fanyi's code makes without naming a device
(``torch.arange(b)``, ``torch.zeros(b)``, ``torch.tensor(ids)``) lands on the ``meta`` device
instead of the default CPU. Work whose inputs are on the CPU then fails at the first place where
such a tensor meets them ("Tensor on device cpu is not on the expected device meta!"), exactly
where, on a GPU, a CPU tensor would meet CUDA ones. Code that follows its inputs' device
(``x.new_zeros``, ``torch.arange(n, device=x.device)``) runs as before.

Host-side code that builds batches on the CPU to move them to the model's device afterwards is
left alone: ``fanyi.data``, whose ``collate`` and ``pad_rows`` make the padded id tensors.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._device import _device_constructors

TORCH = str(Path(torch.__file__).parent)
HOST_SIDE = (str(Path(__file__).parents[1] / "src" / "fanyi" / "data"),)  # batches built on the CPU


def _caller_is_host_side() -> bool:
    """Whether the first frame outside torch and this file is in a ``HOST_SIDE`` folder."""
    frame = sys._getframe(2)
    while frame is not None and (
        frame.f_code.co_filename.startswith(TORCH) or frame.f_code.co_filename == __file__
    ):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.startswith(HOST_SIDE)


class ForeignDevice(TorchFunctionMode):
    """Factory calls without a device make ``meta`` tensors (but in ``HOST_SIDE`` code)."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        made_here = func in _device_constructors() and kwargs.get("device") is None
        if made_here and not _caller_is_host_side():
            kwargs["device"] = "meta"
        return func(*args, **kwargs)


@contextmanager
def foreign_device() -> Iterator[None]:
    """Run the body with ``meta`` as the device of tensors made without one."""
    with ForeignDevice():
        yield

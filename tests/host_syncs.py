"""Count host synchronisations on any device, the CPU included.

On a GPU the host waits for every queued kernel whenever it needs a value the device computed:
a number (``.item()``, ``bool(t)``, ``int(t)``, ``float(t)``), a copy (``.tolist()``, ``.cpu()``,
``.numpy()``), or the size of a result whose shape depends on the data. Inside ``host_syncs()``
each such call adds one to ``HostSyncs.count`` (and its name to ``HostSyncs.calls``). What is
counted, as checked on torch 2.13 with a logging mode:

- ATen ops (a ``TorchDispatchMode``): ``_local_scalar_dense``, what ``.item()``, ``bool``,
  ``int`` and ``float`` dispatch to (under ``torch.inference_mode``, where the searches run, the
  mode sees the composite ``item`` and ``is_nonzero`` instead); ``nonzero`` (also behind
  ``argwhere`` and one-argument ``where``), ``masked_select``, ``_unique2``/``unique_*``, ``repeat_interleave.Tensor``,
  ``bincount``, ``equal``, ``allclose``, and ``index``/``index_put_`` with a boolean index
  (``t[mask]``: a nonzero inside): shapes or answers that need the data; and ``_to_copy``/
  ``copy_`` between the CPU and another device (a download, or an upload that PyTorch completes
  before it returns).
- Python calls (a ``TorchFunctionMode``) that dispatch nothing on a CPU tensor but copy to the
  host on any other: ``tolist``, ``cpu``, ``numpy``, ``to("cpu")``, and ``torch.tensor``/
  ``as_tensor`` given a ``device`` (an upload). They count on CPU tensors only; on a GPU the
  ``_to_copy`` they dispatch counts instead, so no call counts twice.

Not counted: ``torch.multinomial``. Its argument checks end in ``_assert_async``, which reads
the value on the host on the CPU (``.item()`` inside the kernel, out of the mode's sight) but is
a device-side assertion on CUDA.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten
DATA_DEPENDENT = {  # ATen ops that read device data on the host (their packets, all overloads)
    aten._local_scalar_dense,
    aten.item,  # seen whole (not as _local_scalar_dense) under torch.inference_mode
    aten.is_nonzero,  # bool(t) under torch.inference_mode
    aten.nonzero,
    aten.nonzero_numpy,
    aten.argwhere,
    aten.masked_select,
    aten._unique,
    aten._unique2,
    aten.unique_consecutive,
    aten.unique_dim,
    aten.unique_dim_consecutive,
    aten.repeat_interleave,  # only the overload whose repeats are a tensor: see _syncs
    aten.bincount,
    aten.equal,
    aten.allclose,
}
COPIES = {aten._to_copy, aten.copy_}
DOWNLOADS = {"tolist", "cpu", "numpy", "to"}  # Tensor methods, counted on CPU tensors
UPLOADS = {torch.tensor, torch.as_tensor}  # counted when given a device


@dataclass
class HostSyncs:
    """The host synchronisations seen so far."""

    calls: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.calls)


def _devices(value: Any) -> set[str]:
    """Device types of the tensors in ``value`` (a tensor or a list of them)."""
    items = value if isinstance(value, list | tuple) else [value]
    return {t.device.type for t in items if isinstance(t, torch.Tensor)}


def _syncs(func: Any, args: tuple, kwargs: dict, out: Any) -> bool:
    """Whether ATen op ``func`` called with ``args`` reads device data on the host."""
    packet = func.overloadpacket
    if packet is aten.repeat_interleave:
        return func is aten.repeat_interleave.Tensor and kwargs.get("output_size") is None
    if packet in DATA_DEPENDENT:
        return True
    if packet in (aten.index, aten.index_put_, aten.index_put):
        indices = args[1] if len(args) > 1 else []
        return any(i is not None and i.dtype in (torch.bool, torch.uint8) for i in indices)
    if packet in COPIES:
        moved = _devices(args[0]) | _devices(out)
        return "cpu" in moved and len(moved) > 1
    return False


class _Ops(TorchDispatchMode):
    def __init__(self, seen: HostSyncs) -> None:
        super().__init__()
        self.seen = seen

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if _syncs(func, args, kwargs, out):
            self.seen.calls.append(str(func))
        return out


class _Calls(TorchFunctionMode):
    def __init__(self, seen: HostSyncs) -> None:
        super().__init__()
        self.seen = seen

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        on_cpu = bool(args) and isinstance(args[0], torch.Tensor) and args[0].device.type == "cpu"
        download = name in DOWNLOADS and on_cpu and (name != "to" or _to_cpu(args, kwargs))
        if download or (func in UPLOADS and kwargs.get("device") is not None):
            self.seen.calls.append(name)
        return func(*args, **kwargs)


def _to_cpu(args: tuple, kwargs: dict) -> bool:
    """Whether ``Tensor.to(*args, **kwargs)`` names the CPU as its device."""
    device = kwargs.get("device", args[1] if len(args) > 1 else None)
    if isinstance(device, torch.Tensor):
        device = device.device
    return isinstance(device, str | torch.device) and torch.device(device).type == "cpu"


@contextmanager
def host_syncs() -> Iterator[HostSyncs]:
    """Count the host synchronisations of the body (see the module's docstring)."""
    seen = HostSyncs()
    with _Calls(seen), _Ops(seen):
        yield seen

"""What this host computes with: its CPU (name, instruction sets), its cores, and one answer to
"which dtypes are native on this device" for training, decoding, packed linear maps and the
benchmarks, on a CPU and a CUDA card alike.

bf16 arithmetic has hardware only on AMX tiles (Intel Sapphire Rapids on) and AVX-512 BF16 dot
products (Intel Cooper Lake, AMD Zen 4 on), and on CUDA cards from Ampere on; elsewhere PyTorch
emulates it, measured 4-5× slower than fp32 for decoding and 18× for training on an AVX2-only
EPYC. int8 matrix products (dynamic quantisation, CPU kernels only) have VNNI (AVX-512 VNNI or
AVX-VNNI) or fall back to AVX2: int8 runs on every x86 CPU.
"""

from __future__ import annotations

import os
import platform

import torch

BF16_FLAGS = frozenset({"amx_bf16", "avx512_bf16"})
INT8_FLAGS = frozenset({"avx512_vnni", "avx_vnni", "amx_int8"})
ISA_FLAGS = ("amx_bf16", "amx_int8", "avx512_bf16", "avx512_vnni", "avx_vnni", "avx512f", "avx2")


def cpu_flags(cpuinfo: str = "/proc/cpuinfo") -> frozenset[str]:
    """The CPU's feature flags from ``cpuinfo`` (none where there is no such file)."""
    try:
        with open(cpuinfo) as f:
            line = next((line for line in f if line.startswith("flags")), ":")
    except OSError:
        return frozenset()
    return frozenset(line.split(":", 1)[1].split())


def cpu_name(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The CPU's model name (``platform.processor()`` where ``cpuinfo`` does not say)."""
    try:
        with open(cpuinfo) as f:
            line = next((line for line in f if line.startswith("model name")), "")
    except OSError:
        line = ""
    return line.split(":", 1)[1].strip() if line else platform.processor() or "unknown"


def isa(flags: frozenset[str] | None = None) -> list[str]:
    """The instruction sets among ``ISA_FLAGS`` that this CPU has, widest first."""
    have = cpu_flags() if flags is None else flags
    return [flag for flag in ISA_FLAGS if flag in have]


def cores() -> int:
    """The CPU cores this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def bf16_native(device: torch.device, flags: frozenset[str] | None = None) -> bool:
    """Whether ``device`` computes in bf16 in hardware: a CUDA card that supports it (Ampere on),
    a CPU with bf16 instructions (``BF16_FLAGS``; ``flags``: the CPU's, default this one's)."""
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    if device.type != "cpu":
        return False
    return bool((cpu_flags() if flags is None else flags) & BF16_FLAGS)


def bf16_fastest(device: torch.device, flags: frozenset[str] | None = None) -> bool:
    """Whether bf16 decodes fastest on ``device`` without timing it: a CUDA card's tensor cores,
    a CPU's AMX tiles (measured the fastest at both sizes and beams, docs/decoding.md)."""
    if not bf16_native(device, flags):
        return False
    return device.type == "cuda" or "amx_bf16" in (cpu_flags() if flags is None else flags)


def native_dtypes(device: torch.device, flags: frozenset[str] | None = None) -> set[str]:
    """The decoding dtypes besides fp32 that ``device`` runs in hardware: bf16 where
    :func:`bf16_native`, int8 on a CPU (dynamic quantisation has CPU kernels only)."""
    native = {"bf16"} if bf16_native(device, flags) else set()
    if device.type == "cpu":
        native.add("int8")
    return native


def resolve_dtype(dtype: str, device: torch.device, flags: frozenset[str] | None = None) -> str:
    """A training dtype: ``auto`` → bf16 where ``device`` computes it in hardware (a CPU with
    bf16 instructions was measured at 1.8× the fp32 training speed on a 2-core Zen 4), else
    fp32; any other value is kept."""
    if dtype != "auto":
        return dtype
    return "bf16" if bf16_native(device, flags) else "fp32"


def packs_bf16(device: torch.device) -> bool:
    """Whether bf16 linear maps on ``device`` can keep their weights in oneDNN's blocked layout
    (``model.inference.PackedLinear``): a CPU, and a torch build whose oneDNN has bf16 kernels
    for it (AVX-512 or AMX; oneDNN says no on an AVX2-only CPU)."""
    if device.type != "cpu" or not torch.backends.mkldnn.is_available():
        return False
    return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())

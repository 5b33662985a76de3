"""The CPU this process runs on: its name and the instruction sets that decide which dtype is fast.

bf16 arithmetic has hardware only on AMX tiles (Intel Sapphire Rapids on) and AVX-512 BF16 dot
products (Intel Cooper Lake, AMD Zen 4 on); elsewhere PyTorch emulates it, measured 4-5× slower
than fp32 for decoding and 18× for training on an AVX2-only EPYC. int8 matrix products have
VNNI (AVX-512 VNNI or AVX-VNNI) or fall back to AVX2.
"""

from __future__ import annotations

import platform

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

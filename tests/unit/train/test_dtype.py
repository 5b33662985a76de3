"""``dtype: auto`` picks bf16 autocast on CPUs with bf16 matmul instructions, fp32 elsewhere."""

import torch

from fanyi.train.trainer import cpu_flags, resolve_dtype

CPU = torch.device("cpu")


def test_auto_is_bf16_with_amx_or_avx512_bf16():
    assert resolve_dtype("auto", CPU, frozenset({"avx512f", "amx_bf16", "amx_tile"})) == "bf16"
    assert resolve_dtype("auto", CPU, frozenset({"avx512f", "avx512_bf16"})) == "bf16"  # Zen 4


def test_auto_is_fp32_without_them():
    assert resolve_dtype("auto", CPU, frozenset({"avx2", "avx512f"})) == "fp32"
    assert resolve_dtype("auto", CPU, frozenset()) == "fp32"


def test_an_explicit_dtype_wins():
    assert resolve_dtype("fp32", CPU, frozenset({"amx_bf16"})) == "fp32"
    assert resolve_dtype("bf16", CPU, frozenset()) == "bf16"


def test_cpu_flags_reads_this_machine():
    flags = cpu_flags()
    assert isinstance(flags, frozenset) and all(" " not in f for f in flags)

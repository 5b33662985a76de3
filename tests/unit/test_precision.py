"""The host's CPU (its flags and name as /proc/cpuinfo lists them, its instruction sets), its
cores, and the one answer to which dtypes are native on a device: bf16 with AMX or AVX-512 BF16
or on a CUDA card that has it, int8 on every CPU, fp32 everywhere."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import torch

from fanyi import precision


def test_cpu_flags_are_the_flags_line_of_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(
        "processor\t: 0\nmodel name\t: Some CPU\nflags\t\t: fpu sse2 avx512_bf16 amx_bf16\n"
        "bogomips\t: 4000\n\nprocessor\t: 1\nflags\t\t: fpu sse2 avx512_bf16 amx_bf16\n"
    )
    assert precision.cpu_flags(str(cpuinfo)) == {"fpu", "sse2", "avx512_bf16", "amx_bf16"}
    assert precision.cpu_name(str(cpuinfo)) == "Some CPU"
    assert precision.isa(precision.cpu_flags(str(cpuinfo))) == ["amx_bf16", "avx512_bf16"]
    cpuinfo.write_text("processor\t: 0\n")  # no flags line (e.g. some ARM kernels)
    assert precision.cpu_flags(str(cpuinfo)) == frozenset()
    assert precision.cpu_flags(str(tmp_path / "missing")) == frozenset()


@pytest.mark.skipif(shutil.which("lscpu") is None, reason="no lscpu (util-linux) on this host")
def test_cpu_flags_of_this_machine_are_those_lscpu_lists():
    """lscpu (util-linux) reads the flags on its own; where it names none, there is none to read."""
    lscpu = [str(shutil.which("lscpu"))]
    out = subprocess.run(lscpu, capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    lines = out.stdout.splitlines()
    listed = next(
        (line.split(":", 1)[1].split() for line in lines if line.startswith("Flags:")), []
    )
    assert precision.cpu_flags() == set(listed)


@pytest.mark.skipif(not Path("/proc/cpuinfo").is_file(), reason="no /proc/cpuinfo on this OS")
def test_the_instruction_sets_include_those_torch_dispatches_to():
    """PyTorch's own CPU detection (from CPUID) picks its kernels: every instruction set it
    dispatches to is one that fanyi finds."""
    capability = torch.backends.cpu.get_cpu_capability()  # e.g. "AVX512", "AVX2", "DEFAULT"
    needs = {"AVX512": {"avx512f", "avx2"}, "AVX2": {"avx2"}}.get(capability, set())
    assert needs <= set(precision.isa())


CPU, CUDA = torch.device("cpu"), torch.device("cuda:0")
AVX2 = frozenset({"avx2", "fma"})
ZEN4 = frozenset({"avx2", "avx512f", "avx512_bf16", "avx512_vnni"})
SAPPHIRE_RAPIDS = frozenset({"avx2", "avx512f", "avx512_bf16", "amx_bf16", "amx_int8"})


@pytest.mark.parametrize(
    ("flags", "native", "fastest"),
    [
        (AVX2, {"int8"}, False),
        (ZEN4, {"int8", "bf16"}, False),
        (SAPPHIRE_RAPIDS, {"int8", "bf16"}, True),
    ],
)
def test_on_a_cpu_bf16_is_native_only_with_bf16_instructions(flags, native, fastest):
    assert precision.native_dtypes(CPU, flags) == native
    assert precision.bf16_native(CPU, flags) == ("bf16" in native)
    assert precision.bf16_fastest(CPU, flags) == fastest  # AMX: taken without timing


@pytest.mark.parametrize("bf16", [True, False])
def test_on_cuda_bf16_is_native_where_the_card_supports_it(monkeypatch, bf16):
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: bf16)
    assert precision.native_dtypes(CUDA, AVX2) == ({"bf16"} if bf16 else set())  # no int8
    assert precision.bf16_fastest(CUDA, AVX2) == bf16
    assert precision.resolve_dtype("auto", CUDA, AVX2) == ("bf16" if bf16 else "fp32")


def test_training_dtype_auto_follows_the_same_answer():
    assert precision.resolve_dtype("auto", CPU, SAPPHIRE_RAPIDS) == "bf16"
    assert precision.resolve_dtype("auto", CPU, ZEN4) == "bf16"
    assert precision.resolve_dtype("auto", CPU, AVX2) == "fp32"
    assert precision.resolve_dtype("auto", CPU, frozenset()) == "fp32"
    assert precision.resolve_dtype("fp32", CPU, SAPPHIRE_RAPIDS) == "fp32"  # given: kept
    assert precision.resolve_dtype("bf16", CPU, frozenset()) == "bf16"


def test_other_devices_have_no_native_bf16_and_pack_nothing():
    meta = torch.device("meta")
    assert (
        not precision.bf16_native(meta, SAPPHIRE_RAPIDS) and precision.native_dtypes(meta) == set()
    )
    assert not precision.packs_bf16(meta) and not precision.packs_bf16(CUDA)


def test_cores_are_those_this_process_may_run_on():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert precision.cores() == expected >= 1

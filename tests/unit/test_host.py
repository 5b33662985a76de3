"""The host's CPU: its flags and name as /proc/cpuinfo lists them, and the instruction sets that
decide which dtype is fast."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import torch

from fanyi import host


def test_cpu_flags_are_the_flags_line_of_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(
        "processor\t: 0\nmodel name\t: Some CPU\nflags\t\t: fpu sse2 avx512_bf16 amx_bf16\n"
        "bogomips\t: 4000\n\nprocessor\t: 1\nflags\t\t: fpu sse2 avx512_bf16 amx_bf16\n"
    )
    assert host.cpu_flags(str(cpuinfo)) == {"fpu", "sse2", "avx512_bf16", "amx_bf16"}
    assert host.cpu_name(str(cpuinfo)) == "Some CPU"
    assert host.isa(host.cpu_flags(str(cpuinfo))) == ["amx_bf16", "avx512_bf16"]
    cpuinfo.write_text("processor\t: 0\n")  # no flags line (e.g. some ARM kernels)
    assert host.cpu_flags(str(cpuinfo)) == frozenset()
    assert host.cpu_flags(str(tmp_path / "missing")) == frozenset()


@pytest.mark.skipif(shutil.which("lscpu") is None, reason="no lscpu (util-linux) on this host")
def test_cpu_flags_of_this_machine_are_those_lscpu_lists():
    """lscpu (util-linux) reads the flags on its own; where it names none, there is none to read."""
    lscpu = [str(shutil.which("lscpu"))]
    out = subprocess.run(lscpu, capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    lines = out.stdout.splitlines()
    listed = next(
        (line.split(":", 1)[1].split() for line in lines if line.startswith("Flags:")), []
    )
    assert host.cpu_flags() == set(listed)


@pytest.mark.skipif(not Path("/proc/cpuinfo").is_file(), reason="no /proc/cpuinfo on this OS")
def test_the_instruction_sets_include_those_torch_dispatches_to():
    """PyTorch's own CPU detection (from CPUID) picks its kernels: every instruction set it
    dispatches to is one that fanyi finds."""
    capability = torch.backends.cpu.get_cpu_capability()  # e.g. "AVX512", "AVX2", "DEFAULT"
    needs = {"AVX512": {"avx512f", "avx2"}, "AVX2": {"avx2"}}.get(capability, set())
    assert needs <= set(host.isa())

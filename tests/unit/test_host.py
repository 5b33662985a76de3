"""The host's CPU: its flags and name as /proc/cpuinfo lists them, and the instruction sets that
decide which dtype is fast."""

from pathlib import Path

import pytest

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


@pytest.mark.skipif(not Path("/proc/cpuinfo").is_file(), reason="no /proc/cpuinfo on this OS")
def test_cpu_flags_of_this_machine_match_cpuinfo():
    lines = Path("/proc/cpuinfo").read_text().splitlines()
    first = next((line for line in lines if line.startswith("flags")), "flags:")
    assert host.cpu_flags() == set(first.split(":", 1)[1].split())

"""The runtime policy: ``dtype: auto`` picks bf16 on CPUs with bf16 matmul instructions, fp32
elsewhere; thread counts; the device."""

import torch

from fanyi import runtime

CPU = torch.device("cpu")


def test_auto_is_bf16_with_amx_or_avx512_bf16():
    flags = frozenset({"avx512f", "amx_bf16", "amx_tile"})
    assert runtime.resolve_dtype("auto", CPU, flags) == "bf16"
    assert runtime.resolve_dtype("auto", CPU, frozenset({"avx512f", "avx512_bf16"})) == "bf16"


def test_auto_is_fp32_without_them():
    assert runtime.resolve_dtype("auto", CPU, frozenset({"avx2", "avx512f"})) == "fp32"
    assert runtime.resolve_dtype("auto", CPU, frozenset()) == "fp32"


def test_an_explicit_dtype_wins():
    assert runtime.resolve_dtype("fp32", CPU, frozenset({"amx_bf16"})) == "fp32"
    assert runtime.resolve_dtype("bf16", CPU, frozenset()) == "bf16"


def test_threads_default_to_this_process_share_of_the_cores():
    before = torch.get_num_threads()
    try:
        assert runtime.set_threads(None) == runtime.cores() == torch.get_num_threads()
        assert runtime.set_threads(0, processes=runtime.cores() * 2) == 1
        assert runtime.set_threads(3) == 3 == torch.get_num_threads()
    finally:
        torch.set_num_threads(before)


def test_auto_device_is_the_cpu_without_a_gpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert runtime.choose_device("auto") == CPU


def test_under_torchrun_cuda_is_the_process_own_gpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setenv("LOCAL_RANK", "1")
    assert runtime.choose_device("cuda") == torch.device("cuda:1")
    assert runtime.choose_device("cuda:0") == torch.device("cuda:0")

"""The runtime policy: thread counts (this process's share of the cores), the device."""

import torch

from fanyi import precision, runtime

CPU = torch.device("cpu")


def test_threads_default_to_this_process_share_of_the_cores():
    before = torch.get_num_threads()
    try:
        assert runtime.set_threads(None) == precision.cores() == torch.get_num_threads()
        assert runtime.set_threads(0, processes=precision.cores() * 2) == 1
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

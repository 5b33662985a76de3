"""One definition of ``--device`` for every command and the API (cpu, cuda, cuda:N, auto), one
line for a device this machine lacks, and one answer to "is bf16 native here" that training's
and decoding's ``dtype: auto`` both take: bf16 on a CUDA card that supports it, fp32 on one
that does not (the CUDA queries mocked, so this runs without a GPU)."""

import types

import pytest
import torch

from fanyi import Translator, precision, runtime
from fanyi.cli import build_parser
from fanyi.decode import LoadOptions
from fanyi.device import resolve_device
from fanyi.engines import dtype
from fanyi.precision import bf16_native

CPU, CUDA = torch.device("cpu"), torch.device("cuda:0")
AVX2, ZEN4 = frozenset({"avx2"}), frozenset({"avx2", "avx512_bf16"})
COMMANDS = {
    "translate": [],
    "evaluate": [],
    "serve": [],
    "tune": ["--data", "d"],
    "distill": ["--data", "d", "-o", "x"],
}


@pytest.fixture
def gpus(monkeypatch):
    """Pretend this machine has ``count`` GPUs, bf16 on them where ``bf16``."""

    def have(count: int, bf16: bool = True) -> None:
        monkeypatch.setattr(torch.cuda, "is_available", lambda: count > 0)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: count)
        monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: bf16)

    return have


def test_auto_is_a_gpu_where_there_is_one(gpus):
    gpus(0)
    assert resolve_device("auto") == CPU
    gpus(2)
    assert resolve_device("auto") == CUDA
    assert resolve_device("cuda:1") == torch.device("cuda:1")
    assert resolve_device(torch.device("cpu")) == CPU


@pytest.mark.parametrize(
    ("count", "name", "message"),
    [
        (0, "cuda", "'cuda': CUDA is not available on this machine"),
        (0, "auto:1", "'auto:1' is not a device fanyi runs on (cpu, cuda, cuda:N or auto)"),
        (1, "cuda:1", "'cuda:1': this machine has 1 CUDA device(s)"),
        (1, "banana", "'banana' is not a device fanyi runs on"),
        (1, "xla", "'xla' is not a device fanyi runs on"),
    ],
)
def test_a_device_this_machine_lacks_is_one_line(gpus, count, name, message):
    gpus(count)
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        resolve_device(name)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_model_command_takes_the_shared_device_flag(gpus, capsys, command):
    gpus(0)
    parser = build_parser(command)
    args = parser.parse_args([command, *COMMANDS[command], "--device", "auto"])
    assert args.device == "auto"
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args([command, *COMMANDS[command], "--device", "cuda"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert exit_.value.code == 2 and err.endswith(
        "argument --device: 'cuda': CUDA is not available on this machine"
    )


def test_the_api_refuses_a_missing_device_in_one_line(gpus):
    gpus(0)
    with pytest.raises(ValueError, match=r"^'cuda:0': CUDA is not available on this machine$"):
        Translator.load(device="cuda:0")


def test_training_refuses_a_missing_gpu_in_one_line(gpus, monkeypatch):
    gpus(0)
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(ValueError, match="'cuda:0': CUDA is not available"):
        runtime.choose_device("cuda")


def test_bf16_is_native_on_a_card_that_supports_it_and_on_bf16_cpus(gpus):
    gpus(1, bf16=True)
    assert bf16_native(CUDA) and bf16_native(CPU, ZEN4) and not bf16_native(CPU, AVX2)
    gpus(1, bf16=False)
    assert not bf16_native(CUDA)


@pytest.mark.parametrize(("bf16", "expected"), [(True, "bf16"), (False, "fp32")])
def test_dtype_auto_on_cuda_is_bf16_where_the_card_supports_it(gpus, bf16, expected):
    gpus(1, bf16=bf16)
    assert precision.resolve_dtype("auto", CUDA, AVX2) == expected  # training
    assert dtype.candidates(LoadOptions(), AVX2, CUDA) == ["fp32", "bf16"][: 1 + bf16]
    on_cuda = types.SimpleNamespace(parameters=lambda: iter([types.SimpleNamespace(device=CUDA)]))
    assert dtype.choose_dtype(on_cuda, LoadOptions(dtype="auto"), flags=AVX2) == expected  # untimed

"""A model stored as int8 rows decodes in int8 from its rows as stored (``int8_from_rows``,
``model_dir.load_int8_model``): bit for bit the model that dequantising them and quantising
them again made, for any rows a file may hold, and the engine takes that road where the model
decodes in int8 on a CPU, given or as ``auto``'s cached choice."""

import pytest
import torch

from fanyi import model_dir as ckpt
from fanyi.config import to_dict
from fanyi.data import DataConfig
from fanyi.decode.options import LoadOptions, SearchOptions
from fanyi.engines import dtype
from fanyi.engines.native import NativeEngine
from fanyi.int8_storage import dequantize_rows, quantize_rows
from fanyi.model import build_model
from fanyi.model.inference import quantize_int8
from fanyi.model.inference.int8 import Int8Linear
from fanyi.precision import cpu_flags
from fanyi.train import TrainConfig
from fanyi.translate.translator import BUNDLED
from tiny_model import tiny_config


def same_modules(left: torch.nn.Module, right: torch.nn.Module) -> None:
    """The same modules holding the same tensors, bit for bit."""
    assert str(left) == str(right)
    a, b = left.state_dict(), right.state_dict()
    assert list(a) == list(b)
    for name in a:
        assert a[name].dtype == b[name].dtype and torch.equal(a[name], b[name]), name


def odd_rows() -> tuple[torch.Tensor, torch.Tensor]:
    """Rows as ``quantize_rows`` writes them, and rows only another writer would: all zero, no
    127 in them, a -128, scales too small or too large to keep."""
    torch.manual_seed(0)
    weight = torch.randn(40, 24) * torch.logspace(-6, 3, 40)[:, None]
    weight[5] = 0.0
    q, scale = quantize_rows(weight)
    q[7] = torch.randint(-60, 61, (24,), dtype=torch.int8)
    q[8, 3] = -128
    q[9, 0] = -128
    q[9, 1] = 127
    scale[10], scale[11], scale[12] = 1e-14, 3e35, 0.0
    return q, scale


def test_a_map_of_stored_rows_is_the_map_of_the_weights_they_stand_for():
    q, scale = odd_rows()
    bias = torch.randn(40).half()
    for b in (bias, None):
        same_modules(Int8Linear.from_rows(q, scale, b), Int8Linear(dequantize_rows(q, scale), b))
    written = Int8Linear.from_rows(q, scale, None).weight_t.t()
    assert torch.equal(written[:5], q[:5])  # rows as quantize_rows writes them: kept as they are


@pytest.fixture
def stored_int8(tmp_path):
    """A model directory of a tiny model (tied embeddings) stored as int8 rows."""
    spm = tmp_path / "spm.model"
    spm.write_bytes(b"not read here")
    config = tiny_config(96, d_model=32, d_ff=64, tie_embeddings=True)
    sections = {
        "model": to_dict(config),
        "data": to_dict(DataConfig()),
        "train": to_dict(TrainConfig()),
        "vocab": {"src_model": "spm.model", "tgt_model": "spm.model", "joint": True},
    }
    torch.manual_seed(3)
    return ckpt.write_model_dir(tmp_path / "int8", build_model(config), sections, [spm], int8=True)


def test_a_stored_model_is_the_quantised_model_of_its_weights(stored_int8):
    read = ckpt.load_int8_model(ckpt.read_checkpoint(stored_int8))
    same_modules(read, quantize_int8(ckpt.load_model(stored_int8)[0]))
    assert ckpt.stores_int8_rows(stored_int8)


def test_the_engine_takes_the_rows_as_stored_where_it_decodes_in_int8(
    stored_int8, tmp_path, monkeypatch
):
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path / "cache"))
    made = []
    monkeypatch.setattr(dtype, "quantize_int8", lambda model: made.append(model) or model)
    engine = NativeEngine.load(stored_int8, LoadOptions(dtype="int8"), SearchOptions())
    assert engine.options.dtype == "int8" and made == []  # never dequantised, quantised again
    NativeEngine.load(stored_int8, LoadOptions(dtype="fp32"), SearchOptions())
    assert made == []
    auto, cpu, flags = LoadOptions(auto_dtypes=["fp32", "int8"]), torch.device("cpu"), cpu_flags()
    key = dtype.weights_key(ckpt.read_checkpoint(stored_int8))
    assert dtype.settled_dtype(auto, cpu, key, flags) is None  # to be timed
    allowed = dtype.candidates(auto, flags, cpu)
    dtype._write_cache({dtype._cache_key(key, allowed, flags): "int8"})  # as if timed before
    assert dtype.settled_dtype(auto, cpu, key, flags) == "int8"
    assert NativeEngine.load(stored_int8, auto, SearchOptions()).options.dtype == "int8"
    assert made == []


@pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
def test_the_bundled_model_reads_as_it_quantised():
    read = ckpt.load_int8_model(ckpt.read_checkpoint(BUNDLED))
    same_modules(read, quantize_int8(ckpt.load_model(BUNDLED)[0]))

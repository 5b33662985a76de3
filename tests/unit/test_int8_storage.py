"""Weight-only int8 storage (``fanyi average --dtype int8``): the per-row error bound, about half
the size of fp16, tied embeddings stored once, and a clear refusal of an unknown format."""

import json

import pytest
import torch
from safetensors import safe_open
from safetensors.torch import save_file

from fanyi import model_dir as ckpt
from fanyi.config import to_dict
from fanyi.data import DataConfig
from fanyi.int8_storage import SCALE_SUFFIX, dequantize_rows, quantize_rows
from fanyi.model import build_model
from fanyi.model_dir import load_model, read_state_dict
from fanyi.train import TrainConfig
from tiny_model import tiny_config

CONFIG = tiny_config(256, d_model=64, d_ff=256, tie_embeddings=True)  # matrices dominate
TIED = ("src_embed.embeddings.lut.weight", "tgt_embed.embeddings.lut.weight")
TIED += ("generator.proj.weight",)
SECTIONS = {
    "model": to_dict(CONFIG),
    "data": to_dict(DataConfig()),
    "train": to_dict(TrainConfig()),
    "vocab": {"src_model": "spm.model", "tgt_model": "spm.model", "joint": True},
}


def within_bound(original: torch.Tensor, restored: torch.Tensor) -> bool:
    """Each row within max|row| / 254 of the original (and float32 rounding)."""
    bound = original.abs().amax(dim=1, keepdim=True) / 254
    return bool(((restored - original).abs() <= bound * (1 + 1e-5)).all())


def test_rows_come_back_within_half_a_step():
    torch.manual_seed(0)
    w = torch.randn(50, 30) * torch.logspace(-4, 2, 50)[:, None]  # rows of very different ranges
    w[3] = 0.0
    w[7, 5] = 1e3  # an outlier costs its own row only
    q, scale = quantize_rows(w)
    assert q.dtype == torch.int8 and scale.dtype == torch.float32 and scale.shape == (50,)
    assert int(q.abs().max()) == 127 and torch.equal(q[3], torch.zeros(30, dtype=torch.int8))
    assert within_bound(w, dequantize_rows(q, scale))


@pytest.fixture
def stored(tmp_path):
    """{dtype: model directory} of one run's two checkpoints averaged, and the fp32 average."""
    spm = tmp_path / "spm.model"
    spm.write_bytes(b"not really a sentencepiece model")
    for seed in (1, 2):
        torch.manual_seed(seed)
        ckpt.write_model_dir(tmp_path / f"step-{seed}", build_model(CONFIG), SECTIONS, [spm])
        ckpt.record_checkpoint(tmp_path, f"step-{seed}", is_best=False, keep_last=2)
    return {
        dtype: ckpt.average_run(tmp_path, last=2, out=tmp_path / dtype, dtype=dtype)
        for dtype in ("fp32", "fp16", "int8")
    }


def test_int8_is_half_of_fp16_within_the_bound(stored):
    size = {d: (path / ckpt.MODEL_FILE).stat().st_size for d, path in stored.items()}
    assert size["int8"] < 0.56 * size["fp16"]  # 0.54 here: headers, scales, vectors
    original = read_state_dict(stored["fp32"])
    model, _ = load_model(stored["int8"])
    for name, restored in model.state_dict().items():
        assert restored.dtype == torch.float32
        if restored.dim() == 2:
            assert within_bound(original[name], restored), name
        else:  # biases and LayerNorm: fp16
            assert torch.equal(restored, original[name].half().float()), name


def test_the_format_is_in_the_metadata_and_tied_weights_stay_one_tensor(stored):
    with safe_open(str(stored["int8"] / ckpt.MODEL_FILE), "pt") as f:
        metadata, names = f.metadata(), set(f.keys())
        dtypes = {name: f.get_tensor(name).dtype for name in names}
    assert metadata["quantized"] == "int8-rows" and SCALE_SUFFIX in metadata["int8_rows"]
    assert len(set(TIED) & names) == 1 and len(json.loads(metadata["aliases"])) == 2
    matrices = [n for n, d in dtypes.items() if d == torch.int8]
    assert matrices and all(dtypes[n + SCALE_SUFFIX] == torch.float32 for n in matrices)
    assert set(dtypes.values()) == {torch.int8, torch.float32, torch.float16}
    model, _ = load_model(stored["int8"])
    assert len({model.get_parameter(name).data_ptr() for name in TIED}) == 1


def test_an_unknown_format_is_refused_in_one_line(stored):
    path = stored["int8"] / ckpt.MODEL_FILE
    with safe_open(str(path), "pt") as f:
        metadata, tensors = f.metadata(), {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118
    save_file(tensors, path, metadata=metadata | {"quantized": "int4-blocks"})
    with pytest.raises(ValueError, match="unknown weight quantization 'int4-blocks'") as error:
        load_model(stored["int8"])
    assert "\n" not in str(error.value) and str(path) in str(error.value)
    scale = next(name for name in tensors if name.endswith(SCALE_SUFFIX))
    save_file({k: t for k, t in tensors.items() if k != scale}, path, metadata=metadata)
    with pytest.raises(ValueError, match=f"lacks {scale}, one per row"):
        load_model(stored["int8"])

"""Model directories: tied weights through safetensors, pickle-free resume state, refusals,
atomic replacement, averaging."""

import json
import pickle

import pytest
import torch
import yaml

from fanyi import model_dir as ckpt
from fanyi.config import to_dict
from fanyi.data import DataConfig
from fanyi.model import build_model
from fanyi.model_dir import average_checkpoints, load_model
from fanyi.train import TrainConfig
from fanyi.train.state import (
    STATE_JSON,
    capture_rng,
    check_resumable,
    load_training_state,
    restore_rng,
    saved_train_config,
    write_training_state,
)
from tiny_model import tiny_config

CONFIG = tiny_config(50, tie_embeddings=True)


def _sections() -> dict:
    return {
        "model": to_dict(CONFIG),
        "data": to_dict(DataConfig()),
        "train": to_dict(TrainConfig()),
        "vocab": {"src_model": "spm.model", "tgt_model": "spm.model", "joint": True},
    }


def _write(tmp_path, name="ckpt", seed=0, state=None, extra=None):
    torch.manual_seed(seed)
    model = build_model(CONFIG)
    spm = tmp_path / "spm.model"
    spm.write_bytes(b"not really a sentencepiece model")
    if state is not None:
        extra = lambda directory: write_training_state(directory, state)  # noqa: E731
    return model, ckpt.write_model_dir(tmp_path / name, model, _sections(), [spm], extra)


def test_tied_weights_are_stored_once_and_tied_again(tmp_path):
    model, path = _write(tmp_path)
    with open(path / ckpt.MODEL_FILE, "rb") as f:  # safetensors: 8-byte header size, JSON header
        header = json.loads(f.read(int.from_bytes(f.read(8), "little")))
    tied = {
        "src_embed.embeddings.lut.weight",
        "tgt_embed.embeddings.lut.weight",
        "generator.proj.weight",
    }
    assert len(tied & set(header)) == 1  # one matrix stored, two names recorded as aliases
    loaded, checkpoint = load_model(path)
    assert checkpoint.model == CONFIG and checkpoint.src_spm == path / "spm.model"
    for (name, a), b in zip(model.state_dict().items(), loaded.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    assert loaded.generator.proj.weight is loaded.src_embed.embeddings.lut.weight
    assert load_model(path, dtype=torch.bfloat16)[0].generator.proj.weight.dtype == torch.bfloat16


def test_training_state_round_trips_without_pickle(tmp_path):
    model = build_model(CONFIG)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98))
    model(torch.tensor([[5, 6, 3]]), torch.tensor([[2, 7]])).sum().backward()
    optimizer.step()
    state = {
        "optimizer": optimizer.state_dict(),
        "rng": capture_rng(),
        "step": 7,
        "best": None,
    }
    _, path = _write(tmp_path, state=state)
    assert not (path / STATE_JSON).read_bytes().startswith(b"\x80")
    loaded = load_training_state(path)
    assert loaded["step"] == 7 and loaded["best"] is None
    fresh = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98))
    fresh.load_state_dict(loaded["optimizer"])
    for key, value in optimizer.state_dict()["state"][0].items():
        assert torch.equal(value, fresh.state_dict()["state"][0][key])
    restore_rng(loaded["rng"])
    a = torch.rand(3)
    restore_rng(state["rng"])
    assert torch.equal(torch.rand(3), a)


def test_pickle_files_are_refused(tmp_path):
    model_dir = tmp_path / "old"
    model_dir.mkdir()
    (model_dir / "model.pt").write_bytes(pickle.dumps({"weights": 1}))
    with pytest.raises(ValueError, match="pickle"):
        load_model(model_dir)
    with pytest.raises(ValueError, match="pickle"):
        load_model(model_dir / "model.pt")
    _, path = _write(tmp_path)
    (path / ckpt.MODEL_FILE).write_bytes(pickle.dumps({"weights": 1}, protocol=4))
    with pytest.raises(ValueError, match="pickle"):
        load_model(path)


def test_a_config_that_does_not_match_the_weights_is_refused(tmp_path):
    _, path = _write(tmp_path)
    sections = yaml.safe_load((path / ckpt.CONFIG_FILE).read_text())
    sections["model"]["d_ff"] = 128
    (path / ckpt.CONFIG_FILE).write_text(yaml.safe_dump(sections))
    with pytest.raises(ValueError, match=r"does not match.*d_ff|feed_forward"):
        load_model(path)


def test_resume_refuses_changed_settings_but_allows_new_stopping_points():
    saved = TrainConfig()
    check_resumable(saved, TrainConfig(max_steps=5, patience=3, threads=2))
    with pytest.raises(ValueError, match="max_tokens"):
        check_resumable(saved, TrainConfig(max_tokens=100))


def test_an_interrupted_save_leaves_the_previous_checkpoint(tmp_path):
    model, first = _write(tmp_path, name="step-1")
    ckpt.record_checkpoint(tmp_path, "step-1", is_best=True, keep_last=2)

    def crash(directory):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _write(tmp_path, name="step-2", seed=1, extra=crash)
    assert not (tmp_path / "step-2").exists()
    loaded, checkpoint = load_model(tmp_path)
    assert checkpoint.path == first
    assert torch.equal(
        loaded.encoder.layers[0].feed_forward.w_1.weight,
        model.encoder.layers[0].feed_forward.w_1.weight,
    )


def test_old_checkpoints_are_pruned_but_best_is_kept(tmp_path):
    for step in range(1, 5):
        _write(tmp_path, name=f"step-{step}", seed=step)
        ckpt.record_checkpoint(tmp_path, f"step-{step}", is_best=step == 1, keep_last=2)
    assert ckpt.read_index(tmp_path) == {
        "last": "step-4",
        "best": "step-1",
        "kept": ["step-3", "step-4"],
    }
    assert sorted(p.name for p in tmp_path.glob("step-*")) == ["step-1", "step-3", "step-4"]
    assert ckpt.resolve(tmp_path) == tmp_path / "step-1"
    assert ckpt.resolve(tmp_path, "last") == tmp_path / "step-4"


def test_averaging_is_the_elementwise_mean(tmp_path):
    models = [_write(tmp_path, name=f"step-{s}", seed=s)[0] for s in (1, 2, 3)]
    for s in (1, 2, 3):
        ckpt.record_checkpoint(tmp_path, f"step-{s}", is_best=False, keep_last=3)
    averaged = average_checkpoints([tmp_path / "step-2", tmp_path / "step-3"])
    name = "decoder.layers.0.cross_attn.in_proj.weight"
    expected = (models[1].state_dict()[name] + models[2].state_dict()[name]) / 2
    torch.testing.assert_close(averaged[name], expected, rtol=0, atol=1e-7)
    out = ckpt.average_run(tmp_path, last=2)
    model, checkpoint = load_model(out)
    torch.testing.assert_close(model.state_dict()[name], expected, rtol=0, atol=1e-7)
    assert checkpoint.info.averaged_from == ["step-2", "step-3"]
    assert not (out / STATE_JSON).exists()


def test_a_soup_is_the_mean_of_several_models_with_the_first_ones_configs(tmp_path):
    first, a = _write(tmp_path, name="a", seed=1)
    second, b = _write(tmp_path, name="b", seed=2)
    ckpt.write_decode_defaults(a, {"length_penalty": 3.0})
    out = ckpt.average_models([a, b], tmp_path / "soup", labels=["A", "B"])
    model, checkpoint = load_model(out)
    name = "encoder.layers.0.self_attn.in_proj.weight"
    expected = (first.state_dict()[name] + second.state_dict()[name]) / 2
    torch.testing.assert_close(model.state_dict()[name], expected, rtol=0, atol=1e-7)
    assert checkpoint.info.averaged_from == ["A", "B"]
    assert yaml.safe_load((out / ckpt.CONFIG_FILE).read_text())["decode"]["length_penalty"] == 3.0


def test_models_of_different_vocabularies_are_not_averaged(tmp_path):
    _, a = _write(tmp_path, name="a", seed=1)
    _, b = _write(tmp_path, name="b", seed=2)
    (b / "spm.model").write_bytes(b"another sentencepiece model")
    with pytest.raises(ValueError, match="vocabularies differ"):
        ckpt.average_models([a, b], tmp_path / "soup")
    assert not (tmp_path / "soup").exists()


def test_averaged_model_stored_in_fp16_is_half_the_size_and_loads(tmp_path):
    models = [_write(tmp_path, name=f"step-{s}", seed=s)[0] for s in (1, 2)]
    for s in (1, 2):
        ckpt.record_checkpoint(tmp_path, f"step-{s}", is_best=False, keep_last=2)
    full = ckpt.average_run(tmp_path, last=2, out=tmp_path / "fp32")
    half = ckpt.average_run(tmp_path, last=2, out=tmp_path / "fp16", dtype="fp16")
    full_size = (full / ckpt.MODEL_FILE).stat().st_size
    half_size = (half / ckpt.MODEL_FILE).stat().st_size
    assert half_size < 0.6 * full_size  # header and metadata do not shrink
    model, _ = load_model(half)
    name = "encoder.layers.0.feed_forward.w_1.weight"
    expected = (models[0].state_dict()[name] + models[1].state_dict()[name]) / 2
    assert model.state_dict()[name].dtype == torch.float32
    torch.testing.assert_close(model.state_dict()[name], expected.half().float(), rtol=0, atol=0)


def test_a_checkpoint_of_the_old_train_config_can_still_be_resumed(tmp_path):
    _, path = _write(tmp_path)
    sections = yaml.safe_load((path / ckpt.CONFIG_FILE).read_text())
    sections["train"] |= {"model_config": None, "model": {"d_model": 16, "h": 2}}  # as written
    (path / ckpt.CONFIG_FILE).write_text(yaml.safe_dump(sections))
    saved = saved_train_config(ckpt.read_checkpoint(path))
    assert (saved.model.d_model, saved.model.h) == (16, 2)
    sections["train"]["model_config"] = "model.yaml"  # a file named: not silently ignored
    (path / ckpt.CONFIG_FILE).write_text(yaml.safe_dump(sections))
    with pytest.raises(ValueError, match="model_config"):
        saved_train_config(ckpt.read_checkpoint(path))

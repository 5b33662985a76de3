"""scripts/gpu-pack.sh and scripts/gpu-train.sh, the road of a training stage to a card and
back (docs/gpu.md), run here on the CPU (DEVICE=cpu): the pack's shards come back unchanged,
the run trains, and its averaged model comes back in parts that join into a model that loads."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from test_train_tatoeba import TINY, prepared  # noqa: F401  (a module fixture)

from fanyi import Translator

pytestmark = pytest.mark.slow  # prepares a Tatoeba slice and trains (about 1 minute)
REPO = Path(__file__).resolve().parents[2]


def _script(name: str, *args: str, env: dict | None = None) -> None:
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / name), *args],
        env={**os.environ, "PYTHON": sys.executable, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_a_stage_travels_in_a_pack_trains_and_comes_back_in_parts(prepared, tmp_path):  # noqa: F811
    pack, unpacked, out = tmp_path / "pack", tmp_path / "unpacked", tmp_path / "out"
    _script("gpu-pack.sh", str(pack), str(prepared), env={"WHEELS": str(tmp_path / "none")})
    packed = pack / "data" / prepared.name
    assert (packed / "train.src.0000.ids.npy.xz").is_file()
    assert not (packed / "train.src").exists()  # training reads the shards only
    config = tmp_path / "stage.yaml"
    stage = {"data_dir": str(unpacked / prepared.name), "out_dir": str(tmp_path / "not-used")}
    config.write_text(yaml.safe_dump({"model": TINY.model.__dict__, **stage}), encoding="utf-8")
    flags = ["--max-steps", "20", "--validate-every", "10", "--valid-bleu", "false"]
    flags += ["--best-metric", "loss", "--progress", "false", f"--out-dir={tmp_path / 'run'}"]
    env = {"DEVICE": "cpu", "AVERAGE": "2", "OUT": str(out), "DATA_ROOT": str(unpacked)}
    env |= {"SOUP_WITH": str(tmp_path / "run" / "step-0000010"), "DEV": str(prepared)}
    env |= {"DEV_TO": "en"}
    _script("gpu-train.sh", str(pack), str(config), *flags, env=env)
    for name in ("train.src.0000.ids.npy", "train.tgt.0000.offsets.npy"):
        assert np.array_equal(np.load(unpacked / prepared.name / name), np.load(prepared / name))
    parts = sorted(out.glob("model.safetensors.part-*"))
    assert parts and all(p.stat().st_size <= 15 * 2**20 for p in parts)
    model = tmp_path / "model"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"".join(p.read_bytes() for p in parts))
    for name in ("config.yaml", "spm.model"):
        (model / name).write_bytes((out / name).read_bytes())
    averaged = tmp_path / "run" / "avg-int8" / "model.safetensors"
    assert (model / "model.safetensors").read_bytes() == averaged.read_bytes()
    stored = yaml.safe_load((out / "config.yaml").read_text(encoding="utf-8"))["checkpoint"]
    assert stored["averaged_from"] == ["step-0000010", "step-0000020"]
    assert Translator.load(model, beam=1)(["你好。"])[0].strip()
    soup = yaml.safe_load((out / "soup" / "config.yaml").read_text(encoding="utf-8"))
    assert len(list((out / "soup").glob("model.safetensors.part-*"))) == 1
    assert [Path(m).name for m in soup["checkpoint"]["averaged_from"]] == [
        "step-0000010",
        "avg-int8",
    ]
    scored = [line.split("\t") for line in (out / "dev.tsv").read_text().splitlines()]
    assert [(Path(m).name, to) for m, to, _ in scored] == [
        ("avg-int8", "en"),
        ("step-0000010", "en"),
        ("soup-int8", "en"),
    ]
    assert all(0 <= json.loads(score)["bleu"] <= 100 for *_, score in scored)

"""The device tier: translating, evaluating, serving and training (with validation BLEU) on the
``device`` fixture's device, a GPU where there is one (scripts/gpu-check.sh runs it there), the
CPU elsewhere. Outputs are compared with the CPU's by length and kind, not bit for bit: CPU and
GPU kernels differ in the last bits."""

import asyncio
import dataclasses
import json
import math

import httpx
import pytest
import torch

from fanyi import Translator
from fanyi.cli import main
from fanyi.config import load_yaml, override
from fanyi.decode.ensemble import Ensemble
from fanyi.engines.native import NativeEngine
from fanyi.model_dir import read_index
from fanyi.serve import Limits, create_app
from fanyi.train import TrainConfig, train
from tiny_translator import MAX_LEN, REPO, tiny_model_dir

TEXTS = ["我们走吧。", "Tom is here.", "我们走吧。" + "他" * MAX_LEN]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.mark.parametrize(
    "options",
    [
        {"beam": 1},
        {"beam": 3, "n_best": 2, "attention": True},
        {"beam": 3, "rerank_backward": 0.5},
        {"sampling": True, "seed": 1, "top_k": 5},
        {"beam": 2, "dtype": "bf16"},
        {"beam": 2, "dtype": "auto"},
    ],
    ids=["greedy", "n-best", "rerank", "sampling", "bf16", "auto"],
)
def test_translating_on_the_device(model_dir, device, options):
    translator = Translator.load(model_dir, device=device, **options)
    assert translator.engine.device.type == torch.device(device).type
    results = translator.translate(TEXTS, n_best=options.get("n_best", 1))
    assert [bool(r.text) or r.error is None for r in results] == [True] * len(TEXTS)
    assert all(r.error is None for r in results)


def test_an_ensemble_on_the_device(model_dir, device):
    translator = Translator.load(model_dir, device=device, beam=2, dtype="fp32")  # wrapped again
    ensemble = Ensemble([translator.engine.model, translator.engine.model]).eval()
    engine = NativeEngine(ensemble, translator.checkpoint, translator.engine.options)
    both = Translator(engine, translator.options)
    assert len(both(TEXTS[:2])) == 2


def test_evaluate_on_the_device(model_dir, device, tmp_path, capsys):
    src, ref = tmp_path / "src", tmp_path / "ref"
    src.write_text("我们走吧。\n他在这里。\n", encoding="utf-8")
    ref.write_text("Let's go.\nHe is here.\n", encoding="utf-8")
    argv = ["evaluate", "-m", str(model_dir), "--src", str(src), "--ref", str(ref), "--to", "en"]
    assert main([*argv, "--device", device, "--beam", "2", "--json", "--threads", "1"]) == 0
    assert math.isfinite(json.loads(capsys.readouterr().out)["bleu"])


def test_serving_on_the_device(model_dir, device):
    app = create_app(Translator.load(model_dir, device=device), Limits())

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post("/translate", json={"text": TEXTS[:2], "beam": 2})

    response = asyncio.run(send())
    assert response.status_code == 200, response.text


def test_training_with_validation_bleu_on_the_device(model_dir, device, tmp_path):
    """Validation BLEU decodes on the training device (it once crashed there)."""
    tiny = load_yaml(TrainConfig, REPO / "configs" / "train" / "tiny.yaml")
    cfg = override(
        tiny,
        {
            "data_dir": str(model_dir.parents[1] / "data"),
            "out_dir": str(tmp_path / "run"),
            "progress": False,
            "max_steps": 6,
            "validate_every": 3,
            "valid_bleu": True,
            "valid_bleu_sentences": 10,
            "model": dataclasses.replace(tiny.model, max_len=MAX_LEN),
        },
    )
    run = train(cfg, device=device, dtype="fp32")
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    bleu = [r["bleu"] for r in records if r["kind"] == "valid"]
    assert len(bleu) == 2 and all(math.isfinite(b) for b in bleu)
    assert read_index(run)["last"]

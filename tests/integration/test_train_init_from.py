"""``init_from``: a run that starts from a trained model's weights, with a fresh optimizer, and
refuses a model whose config or vocabulary is not the data's."""

import pytest
import torch

from fanyi import model_dir as ckpt
from fanyi.model import ModelConfig
from fanyi.train import Trainer, train
from tiny_run import tiny_config, word_corpus


def _config(data_dir, out, **changes):
    return tiny_config(data_dir, out, **{"max_steps": 3, **changes})


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("init")
    data = word_corpus(root)
    return data, train(_config(data, root / "run"))


def test_a_run_starts_from_the_model_weights_with_a_new_optimizer(trained, tmp_path):
    data, run = trained
    start = Trainer(_config(data, tmp_path / "next", init_from=str(run), seed=5))
    saved = ckpt.read_state_dict(ckpt.resolve(run))
    for name, tensor in start.ctx.model.state_dict().items():
        assert torch.equal(tensor, saved[name]), name
    assert start.state.step == 0 and not start.ctx.optimizer.state
    fresh = Trainer(_config(data, tmp_path / "fresh", seed=5)).ctx.model
    assert not torch.equal(fresh.generator.proj.weight, start.ctx.model.generator.proj.weight)


def test_another_vocabulary_or_model_config_is_refused(trained, tmp_path):
    data, run = trained
    other = word_corpus(tmp_path, seed=1, out_dir=str(tmp_path / "other"))  # other text, same size
    with pytest.raises(ValueError, match=r"vocabulary spm\.model differs"):
        Trainer(_config(other, tmp_path / "a", init_from=str(run)))
    wider = ModelConfig(d_model=32, d_ff=32, h=2, N_enc=1, N_dec=1)
    with pytest.raises(ValueError, match="model config differs from this run's"):
        Trainer(_config(data, tmp_path / "b", init_from=str(run), model=wider))
    vocab_from = word_corpus(
        tmp_path, vocab_from=str(run / "step-0000003"), out_dir=str(tmp_path / "v")
    )
    Trainer(_config(vocab_from, tmp_path / "c", init_from=str(run)))  # the same vocabulary: fine


def test_a_continued_run_keeps_the_decoding_defaults_of_its_start(trained, tmp_path):
    """A model's tuned α, λ and β (``decode`` in its config.yaml) carry over to the checkpoints
    of a run that continues it, also after a resume, and to their average."""
    data, run = trained
    start = tmp_path / "start"
    ckpt.average_models([run], start)
    tuned = {"length_penalty": 3.0, "rerank_backward": 0.2, "script_penalty": 0.5}
    ckpt.write_decode_defaults(start, tuned)
    part = train(_config(data, tmp_path / "next", init_from=str(start), max_steps=2))
    assert ckpt.read_checkpoint(ckpt.resolve(part)).decode == tuned
    resumed = train(_config(data, tmp_path / "next", init_from=str(start)), part)
    assert ckpt.read_checkpoint(ckpt.resolve(resumed)).decode == tuned
    assert ckpt.read_checkpoint(ckpt.average_run(resumed, 2)).decode == tuned
    assert not ckpt.read_checkpoint(ckpt.resolve(run)).decode  # a run from scratch has none

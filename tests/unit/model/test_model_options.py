"""The ModelConfig choices other Transformers make (MarianMT): activation, embedding scale,
sinusoid layout, final LayerNorm. Their defaults are the paper's and change nothing."""

import math

import pytest
import torch
import torch.nn.functional as F

from fanyi.model import ModelConfig, build_model
from fanyi.model.embedding import sinusoid_table
from fanyi.model.feed_forward import PositionwiseFeedForward

SMALL = {"src_vocab_size": 20, "tgt_vocab_size": 20, "d_model": 16, "d_ff": 32, "h": 2}


def test_defaults_are_the_papers():
    c = ModelConfig(**SMALL)
    assert (c.activation, c.scale_embeddings, c.sinusoid_layout) == ("relu", True, "interleaved")
    assert (c.bos_id, c.eos_id, c.pad_id) == (2, 3, 0)
    assert not c.has_final_norm and ModelConfig(**SMALL, norm="pre").has_final_norm


@pytest.mark.parametrize(
    ("activation", "reference"),
    [("relu", F.relu), ("gelu", lambda x: 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))),
     ("swish", lambda x: x * torch.sigmoid(x))],
)  # fmt: skip
def test_feed_forward_activation(activation, reference):
    torch.manual_seed(0)
    ff = PositionwiseFeedForward(8, 16, activation=activation)
    x = torch.randn(3, 5, 8)
    assert torch.allclose(ff(x), ff.w_2(reference(ff.w_1(x))), atol=1e-6)


def test_concat_layout_is_the_interleaved_table_reordered():
    interleaved, concat = sinusoid_table(50, 16), sinusoid_table(50, 16, "concat")
    assert torch.equal(concat[:, :8], interleaved[:, 0::2])
    assert torch.equal(concat[:, 8:], interleaved[:, 1::2])


def test_unscaled_embeddings_and_final_norms():
    model = build_model(ModelConfig(**SMALL, scale_embeddings=False, final_norm=True))
    tokens = torch.tensor([[4, 5, 6]])
    lut = model.src_embed.embeddings.lut
    assert torch.equal(model.src_embed.embeddings(tokens), lut(tokens))
    assert isinstance(model.encoder.norm, torch.nn.LayerNorm)
    pre_without = build_model(ModelConfig(**SMALL, norm="pre", final_norm=False))
    assert isinstance(pre_without.decoder.norm, torch.nn.Identity)


@pytest.mark.parametrize(("key", "value"), [("activation", "tanh"), ("sinusoid_layout", "halves")])
def test_unknown_choices_are_refused(key, value):
    with pytest.raises(ValueError, match=key):
        ModelConfig(**SMALL, **{key: value})

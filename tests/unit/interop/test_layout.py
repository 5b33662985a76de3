"""A model and its weights permuted into the other sinusoid layout compute the same thing."""

import torch

from fanyi.interop.layout import to_concat_layout
from fanyi.model import ModelConfig, build_model


def test_the_concat_layout_copy_computes_the_same_log_probs():
    torch.manual_seed(0)
    config = ModelConfig(
        src_vocab_size=30, tgt_vocab_size=30, d_model=16, d_ff=32, h=4, N_enc=2, N_dec=2,
        tie_embeddings=True, dropout=0.0,
    )  # fmt: skip
    model = build_model(config).eval()
    concat = build_model(ModelConfig(**{**vars(config), "sinusoid_layout": "concat"})).eval()
    concat.load_state_dict(to_concat_layout(model.state_dict(), config.d_model))
    src, tgt = torch.randint(1, 30, (3, 7)), torch.randint(1, 30, (3, 5))
    with torch.no_grad():
        assert torch.allclose(model(src, tgt), concat(src, tgt), atol=1e-5)
        unpermuted = build_model(ModelConfig(**{**vars(config), "sinusoid_layout": "concat"}))
        unpermuted.load_state_dict(model.state_dict())
        assert not torch.allclose(model(src, tgt), unpermuted.eval()(src, tgt), atol=1e-3)

"""The peers of ``benchmarks/gpu.py``: the training loops a user would otherwise write, on the
shapes fanyi trains (d_model, h, d_ff, layers, shared vocabulary).

- ``torch``: embeddings with sinusoids, ``torch.nn.Transformer`` (post-norm, ReLU, dropout 0.1,
  its fast paths as PyTorch picks them), an output projection, cross-entropy with label
  smoothing 0.1, Adam, gradient clipping: the loop of PyTorch's own tutorials.
- ``marian``: Hugging Face ``MarianMTModel`` with the same sizes, its loss from ``labels``.

Each step function takes (src, tgt_in, tgt_out) and returns the loss tensor, unread.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import Tensor, nn
from torch.nn import functional as F

Step = Callable[[Tensor, Tensor, Tensor], Tensor]


class TorchTransformer(nn.Module):
    """Embeddings · √d + sinusoids → ``nn.Transformer`` → a linear map to the vocabulary."""

    def __init__(self, d_model: int, d_ff: int, h: int, n_enc: int, n_dec: int, vocab: int):
        super().__init__()
        self.d_model = d_model
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.transformer = nn.Transformer(
            d_model, h, n_enc, n_dec, d_ff, dropout=0.1, batch_first=True
        )
        self.out = nn.Linear(d_model, vocab)
        position = torch.arange(512)[:, None]
        rate = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        table = torch.zeros(512, d_model)
        table[:, 0::2], table[:, 1::2] = torch.sin(position * rate), torch.cos(position * rate)
        self.register_buffer("sinusoids", table)

    def embedded(self, ids: Tensor) -> Tensor:
        return self.embed(ids) * math.sqrt(self.d_model) + self.sinusoids[: ids.size(1)]

    def forward(self, src: Tensor, tgt_in: Tensor) -> Tensor:
        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1), device=src.device)
        hidden = self.transformer(
            self.embedded(src),
            self.embedded(tgt_in),
            tgt_mask=causal,
            src_key_padding_mask=src == 0,
            memory_key_padding_mask=src == 0,
            tgt_is_causal=True,
        )
        return self.out(hidden)


def adam(model: nn.Module) -> torch.optim.Adam:
    """The peers' optimizer: PyTorch's default Adam (foreach), §5.3's betas and epsilon."""
    return torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)


def learn(model: nn.Module, optimizer: torch.optim.Optimizer, loss: Tensor) -> Tensor:
    """Backpropagate ``loss``, clip the gradient to norm 1, update; the loss, unread."""
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return loss.detach()


def torch_step(shape: dict, vocab: int, device: torch.device, autocast) -> Step:
    model = TorchTransformer(
        shape["d_model"], shape["d_ff"], shape["h"], shape["N_enc"], shape["N_dec"], vocab
    ).to(device)
    optimizer = adam(model)

    def step(src: Tensor, tgt_in: Tensor, tgt_out: Tensor) -> Tensor:
        with autocast:
            logits = model(src, tgt_in)
        loss = F.cross_entropy(
            logits.float().flatten(0, 1), tgt_out.flatten(), ignore_index=0, label_smoothing=0.1
        )
        return learn(model, optimizer, loss)

    model.train()
    return step


def marian_step(shape: dict, vocab: int, device: torch.device, autocast) -> Step:
    from transformers import MarianConfig, MarianMTModel

    config = MarianConfig(
        vocab_size=vocab,
        d_model=shape["d_model"],
        encoder_layers=shape["N_enc"],
        decoder_layers=shape["N_dec"],
        encoder_attention_heads=shape["h"],
        decoder_attention_heads=shape["h"],
        encoder_ffn_dim=shape["d_ff"],
        decoder_ffn_dim=shape["d_ff"],
        max_position_embeddings=512,
        pad_token_id=0,
        decoder_start_token_id=2,
        dropout=0.1,
    )
    model = MarianMTModel(config).to(device)
    optimizer = adam(model)

    def step(src: Tensor, tgt_in: Tensor, tgt_out: Tensor) -> Tensor:
        with autocast:
            loss = model(
                input_ids=src, attention_mask=src != 0, decoder_input_ids=tgt_in, labels=tgt_out
            ).loss
        return learn(model, optimizer, loss)

    model.train()
    return step


PEERS = {"torch": torch_step, "marian": marian_step}

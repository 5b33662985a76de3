"""The peers of ``benchmarks/decode.py``: fanyi's weights in a Hugging Face MarianMTModel, that
model converted to CTranslate2, and a decoder without a cache (The Annotated Transformer's).

MarianMT is fanyi's post-norm Transformer with ReLU, embeddings scaled by √d_model, tied
embeddings, an output bias (``final_logits_bias``) and no final layer norms; it differs in the
layout of its sinusoids (all sines, then all cosines, where fanyi interleaves them), so every
weight that reads or writes the model's d_model features is permuted to match. CTranslate2's
Marian loader expects a trailing ``<pad>`` token (which it drops) and starts the decoder from a
zero embedding, so the Marian vocabulary gets one extra, never-chosen token and the benchmark
model's BOS embedding is zero.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import torch
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from torch import Tensor, nn
from transformers import MarianConfig, MarianMTModel, PreTrainedTokenizerFast

from common import interleaved
from fanyi.decode import SearchOptions, decode
from fanyi.model import Model, ModelConfig, Transformer, build_model

if TYPE_CHECKING:  # imported where used: a GPU image may lack CTranslate2
    import ctranslate2

BOS, EOS = 2, 3
SIZES = {  # the benchmark models: random weights, real shapes (tiny: the bundled Tatoeba size)
    "tiny": {"d_model": 256, "d_ff": 1024, "h": 4, "N": 3, "vocab": 8000},
    "base-small": {"d_model": 512, "d_ff": 2048, "h": 8, "N": 6, "vocab": 16000},
}
SPECIALS = ["<blank>", "<unk>", "<s>", "</s>"]  # fanyi's pad, unk, bos, eos


def random_model(size: dict) -> Transformer:
    """A post-norm model with tied embeddings; BOS embeds to zero (CTranslate2's Marian start)."""
    torch.manual_seed(0)
    config = ModelConfig(
        src_vocab_size=size["vocab"],
        tgt_vocab_size=size["vocab"],
        d_model=size["d_model"],
        d_ff=size["d_ff"],
        h=size["h"],
        N_enc=size["N"],
        N_dec=size["N"],
        tie_embeddings=True,
    )
    model = build_model(config).eval()
    with torch.no_grad():
        model.tgt_embed.embeddings.lut.weight[BOS].zero_()
    return model


def timed_searches(
    models: dict[str, Model], src: Tensor, config: SearchOptions, rounds: int
) -> tuple[dict[str, list[list[int]]], dict[str, float]]:
    """Each model's best tokens per source (the warm-up) and its median seconds a search of
    ``src``, the models' searches interleaved."""
    found = {k: [h[0].tokens for h in decode(m, src, config)] for k, m in models.items()}
    runs = {k: (lambda m=m: decode(m, src, config)) for k, m in models.items()}
    return found, interleaved(runs, rounds, warmup=0)


def sources(
    vocab: int, rows: int, device: torch.device | str = "cpu", lengths: tuple[int, int] = (20, 30)
) -> Tensor:
    """``rows`` right-padded sources of ``lengths`` (shortest, longest: 20-30) ordinary tokens
    (the same for given ``rows`` and ``lengths``)."""
    g, (shortest, longest) = torch.Generator().manual_seed(1), lengths
    drawn = torch.randint(shortest, longest + 1, (rows,), generator=g)
    src = torch.randint(4, vocab, (rows, longest), generator=g)
    return src.masked_fill(torch.arange(longest) >= drawn[:, None], 0).to(device)


@torch.inference_mode()
def generate_exactly(marian: MarianMTModel, src: Tensor, beam: int, new_tokens: int) -> Tensor:
    """``MarianMTModel.generate`` (with its KV cache) of exactly ``new_tokens`` tokens per source:
    b x (1 + new_tokens), the start token first."""
    return marian.generate(
        input_ids=src,
        attention_mask=src != 0,
        num_beams=beam,
        do_sample=False,
        max_new_tokens=new_tokens,
        min_new_tokens=new_tokens,
        decoder_start_token_id=BOS,
        eos_token_id=EOS,
        pad_token_id=marian.config.pad_token_id,
    )


def marian_config(model: Transformer) -> MarianConfig:
    """MarianMT hyper-parameters equal to ``model``'s, plus CTranslate2's trailing <pad>."""
    c = model.config
    return MarianConfig(
        vocab_size=c.tgt_vocab_size + 1,
        d_model=c.d_model,
        encoder_layers=c.N_enc,
        decoder_layers=c.N_dec,
        encoder_attention_heads=c.h,
        decoder_attention_heads=c.h,
        encoder_ffn_dim=c.d_ff,
        decoder_ffn_dim=c.d_ff,
        activation_function="relu",
        scale_embedding=True,
        max_position_embeddings=c.max_len,
        pad_token_id=c.tgt_vocab_size,
        bos_token_id=BOS,
        eos_token_id=EOS,
        decoder_start_token_id=BOS,
        forced_eos_token_id=None,
        share_encoder_decoder_embeddings=True,
        tie_word_embeddings=True,
        dropout=0.0,
        attention_dropout=0.0,
        activation_dropout=0.0,
    )


def feature_order(d_model: int) -> Tensor:
    """Marian's feature m is fanyi's feature order[m]: sines (even) first, then cosines (odd)."""
    return torch.cat([torch.arange(0, d_model, 2), torch.arange(1, d_model, 2)])


def _attention(out: dict, prefix: str, attention: nn.Module, order: Tensor) -> None:
    w_q, w_k, w_v = attention.in_proj.weight.chunk(3)
    b_q, b_k, b_v = attention.in_proj.bias.chunk(3)
    for name, w, b in (("q", w_q, b_q), ("k", w_k, b_k), ("v", w_v, b_v)):
        out[f"{prefix}{name}_proj.weight"], out[f"{prefix}{name}_proj.bias"] = w[:, order], b
    out[f"{prefix}out_proj.weight"] = attention.out_proj.weight[order]
    out[f"{prefix}out_proj.bias"] = attention.out_proj.bias[order]


def _norm(out: dict, prefix: str, norm: nn.LayerNorm, order: Tensor) -> None:
    out[prefix + "weight"], out[prefix + "bias"] = norm.weight[order], norm.bias[order]


def _feed_forward(out: dict, prefix: str, ff: nn.Module, order: Tensor) -> None:
    out[prefix + "fc1.weight"], out[prefix + "fc1.bias"] = ff.w_1.weight[:, order], ff.w_1.bias
    out[prefix + "fc2.weight"], out[prefix + "fc2.bias"] = ff.w_2.weight[order], ff.w_2.bias[order]


def _layers(out: dict, model: Transformer, order: Tensor) -> None:
    for i, layer in enumerate(model.encoder.layers):
        p = f"model.encoder.layers.{i}."
        _attention(out, p + "self_attn.", layer.self_attn, order)
        _norm(out, p + "self_attn_layer_norm.", layer.sublayers[0].norm, order)
        _feed_forward(out, p, layer.feed_forward, order)
        _norm(out, p + "final_layer_norm.", layer.sublayers[1].norm, order)
    for i, layer in enumerate(model.decoder.layers):
        p = f"model.decoder.layers.{i}."
        _attention(out, p + "self_attn.", layer.self_attn, order)
        _norm(out, p + "self_attn_layer_norm.", layer.sublayers[0].norm, order)
        _attention(out, p + "encoder_attn.", layer.cross_attn, order)
        _norm(out, p + "encoder_attn_layer_norm.", layer.sublayers[1].norm, order)
        _feed_forward(out, p, layer.feed_forward, order)
        _norm(out, p + "final_layer_norm.", layer.sublayers[2].norm, order)


@torch.no_grad()
def marian_from_fanyi(model: Transformer) -> MarianMTModel:
    """A MarianMTModel computing what ``model`` (post-norm, tied embeddings) computes."""
    assert model.config.norm == "post" and model.config.tie_embeddings
    marian = MarianMTModel(marian_config(model)).eval()
    order = feature_order(model.config.d_model)
    embedding = model.tgt_embed.embeddings.lut.weight[:, order]
    embedding = torch.cat([embedding, torch.zeros(1, embedding.size(1))])  # the extra <pad>
    state = {
        key: embedding
        for key in (
            "model.shared.weight",
            "model.encoder.embed_tokens.weight",
            "model.decoder.embed_tokens.weight",
            "lm_head.weight",
        )
    }
    bias = torch.cat([model.generator.proj.bias, torch.tensor([-1e4])])  # <pad> never chosen
    state["final_logits_bias"] = bias[None]
    _layers(state, model, order)
    missing, unexpected = marian.load_state_dict(state, strict=False)
    assert not unexpected and all("embed_positions" in k for k in missing), (missing, unexpected)
    return marian


@torch.no_grad()
def check_marian(model: Transformer, marian: MarianMTModel, src: Tensor, tgt: Tensor) -> float:
    """Largest difference between fanyi's and Marian's teacher-forced logits (b x t x V)."""
    tgt_in = torch.cat([torch.full_like(tgt[:, :1], BOS), tgt], dim=1)
    src_mask = model.source_mask(src)
    hidden, _ = model.decode(tgt_in, model.encode(src, src_mask), src_mask)
    ours = model.generator.logits(hidden)
    theirs = marian(input_ids=src, attention_mask=src != 0, decoder_input_ids=tgt_in).logits
    return float((ours - theirs[..., :-1]).abs().max())


def vocabulary(size: int) -> list[str]:
    """Token strings for CTranslate2: fanyi's specials, then w4, w5, …, then the trailing <pad>."""
    return SPECIALS + [f"w{i}" for i in range(len(SPECIALS), size)] + ["<pad>"]


def save_tokenizer(size: int, directory: Path) -> None:
    """A word-level tokenizer over ``vocabulary(size)``: the converter reads tokens from it."""
    vocab = {token: i for i, token in enumerate(vocabulary(size))}
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(WordLevel(vocab, unk_token="<unk>")),
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
        pad_token="<pad>",
    )
    tokenizer.save_pretrained(directory)


def ct2_models(marian: MarianMTModel, workdir: Path) -> dict[str, str]:
    """Convert ``marian`` with CTranslate2's TransformersConverter: float32 and int8 directories."""
    import ctranslate2

    hf_dir = workdir / "marian"
    marian.save_pretrained(hf_dir)
    save_tokenizer(marian.config.vocab_size - 1, hf_dir)
    converted = {}
    for quantization in ("float32", "int8"):
        out = workdir / f"ct2-{quantization}"
        converter = ctranslate2.converters.TransformersConverter(str(hf_dir))
        converted[quantization] = converter.convert(str(out), quantization=quantization, force=True)
    return converted


def as_tokens(ids: Tensor, pad_id: int = 0) -> list[list[str]]:
    """Right-padded id rows as CTranslate2 token lists."""
    words = vocabulary(int(ids.max()) + 1)
    return [[words[i] for i in row if i != pad_id] for row in ids.tolist()]


@torch.no_grad()
def check_ct2(
    model: Transformer, translator: ctranslate2.Translator, src: Tensor, tgt: Tensor
) -> float:
    """Largest difference between fanyi's and CTranslate2's log-probabilities of ``tgt`` + EOS."""
    tgt_in = torch.cat([torch.full_like(tgt[:, :1], BOS), tgt], dim=1)
    src_mask = model.source_mask(src)
    hidden, _ = model.decode(tgt_in, model.encode(src, src_mask), src_mask)
    log_probs = model.generator(hidden)  # b x (t+1) x V
    gold = torch.cat([tgt, torch.full_like(tgt[:, :1], EOS)], dim=1)
    ours = log_probs.gather(2, gold[..., None])[..., 0]
    words = vocabulary(model.config.tgt_vocab_size)
    results = translator.score_batch(
        [[words[i] for i in row if i] for row in src.tolist()],
        [[words[i] for i in row] for row in tgt.tolist()],
    )
    theirs = torch.tensor([r.log_probs for r in results])
    return float((ours - theirs).abs().max())


@torch.no_grad()
def no_cache_greedy(model: Transformer, src: Tensor, steps: int) -> Tensor:
    """Greedy decoding that re-runs the whole decoder on the prefix at every step (no cache)."""
    src_mask = model.source_mask(src)
    memory = model.encode(src, src_mask)
    ys = torch.full((src.size(0), 1), BOS, dtype=torch.long)
    for _ in range(steps):
        hidden, _ = model.decode(ys, memory, src_mask)
        ys = torch.cat([ys, model.generator.logits(hidden[:, -1]).argmax(-1, keepdim=True)], dim=1)
    return ys[:, 1:]

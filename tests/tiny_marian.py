"""Tiny MarianMT checkpoints with random weights, as OPUS-MT lays them out: two SentencePiece
models (source, target) trained here on a few hundred generated lines, one ``vocab.json`` over
both (``</s>`` 0, ``<unk>`` 1, ``<pad>`` last; ids unlike SentencePiece's own), and
``save_pretrained``; the weights in ``model.safetensors`` (each tied matrix once), or in
``pytorch_model.bin`` as ``torch.save(model.state_dict())`` and transformers 4.x write it (every
alias of the tied embeddings, and the sinusoids). ``python tests/tiny_marian.py DIR`` writes one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import sentencepiece as spm
import torch
from torch import nn
from transformers import MarianConfig, MarianMTModel, MarianTokenizer

SYLLABLES = [c + v for c in "bkmrstz" for v in "aiou"]  # source words are made of these
WORDS = [c + v for c in ("th", "c", "d", "r", "s", "wh") for v in ("e", "at", "og", "un", "ee")]


def corpus(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` source lines (words of made-up syllables) and ``n`` target lines (English words)."""
    rng = random.Random(seed)
    words = ["".join(rng.choices(SYLLABLES, k=rng.randint(1, 3))) for _ in range(60)]
    sources = [" ".join(rng.choices(words, k=rng.randint(2, 12))) for _ in range(n)]
    targets = [" ".join(rng.choices(WORDS, k=rng.randint(2, 12))) for _ in range(n)]
    return sources, targets


def train_spm(lines: list[str], prefix: Path, vocab_size: int) -> Path:
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_prefix=str(prefix),
        vocab_size=vocab_size,
        character_coverage=1.0,
        hard_vocab_limit=False,
        minloglevel=2,
        num_threads=1,
    )
    return prefix.with_suffix(".model")


def vocabulary(source: Path, target: Path) -> dict[str, int]:
    """Marian's vocab.json: </s>, <unk>, the pieces of both models, <pad> last."""
    pieces = ["</s>", "<unk>"]
    for model in (source, target):
        sp = spm.SentencePieceProcessor(model_file=str(model))
        pieces += [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not sp.is_control(i)]
    pieces = [p for p in dict.fromkeys(pieces) if p not in ("<s>",)]
    return {piece: i for i, piece in enumerate([*pieces, "<pad>"])}


def randomize(model: nn.Module, seed: int, eos_bias: float) -> None:
    """Weights large enough that the next token is rarely a near-tie (HF's init is ~uniform);
    the padding's embedding zero, as in OPUS-MT models (CTranslate2 relies on it)."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "embed_positions" in name:  # the fixed sinusoids
                continue
            if "layer_norm" in name:
                p.copy_(
                    (1.0 if name.endswith("weight") else 0.0)
                    + 0.2 * torch.randn(p.shape, generator=generator)
                )
            elif p.dim() > 1:
                p.copy_(torch.randn(p.shape, generator=generator) / p.size(-1) ** 0.5)
            else:
                p.copy_(0.1 * torch.randn(p.shape, generator=generator))
        bias = torch.randn(model.final_logits_bias.shape, generator=generator)
        bias[0, model.config.eos_token_id] += eos_bias  # higher: more translations end early
        model.final_logits_bias.copy_(bias)
        for embedding in (model.model.encoder.embed_tokens, model.model.decoder.embed_tokens):
            embedding.weight[model.config.pad_token_id] = 0  # OPUS-MT's decoder starts from zeros


def build(
    directory: Path,
    activation: str,
    tied: bool = True,
    weights: str = "safetensors",
    eos_bias: float = 3.0,
    seed: int = 0,
) -> MarianMTModel:
    """Write a tiny MarianMT checkpoint to ``directory`` (``tied``: one embedding matrix, else
    three; ``weights``: safetensors or bin); return the model (eval mode)."""
    directory.mkdir(parents=True, exist_ok=True)
    sources, targets = corpus(300, seed)
    source = train_spm(sources, directory / "source", 80)
    target = train_spm(targets, directory / "target", 60)
    vocab = vocabulary(source, target)
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    source.rename(directory / "source.spm")
    target.rename(directory / "target.spm")
    config = MarianConfig(
        vocab_size=len(vocab), d_model=32, encoder_layers=2, decoder_layers=2,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_position_embeddings=128, activation_function=activation,
        scale_embedding=True, pad_token_id=vocab["<pad>"], eos_token_id=0,
        decoder_start_token_id=vocab["<pad>"], forced_eos_token_id=0, tie_word_embeddings=tied,
        share_encoder_decoder_embeddings=tied,
    )  # fmt: skip
    model = MarianMTModel(config)
    randomize(model, seed, eos_bias)
    model.eval().save_pretrained(directory)
    if weights == "bin":
        (directory / "model.safetensors").unlink()
        torch.save(model.state_dict(), directory / "pytorch_model.bin")
    files = [str(directory / name) for name in ("source.spm", "target.spm", "vocab.json")]
    MarianTokenizer(*files).save_pretrained(directory)
    return model


if __name__ == "__main__":
    import sys

    build(Path(sys.argv[1]), "swish", weights="bin")

"""``fanyi convert`` of a MarianMT checkpoint computes what transformers computes.

Tiny MarianMT models with random weights (``tests/tiny_marian.py``), saved with
``save_pretrained`` beside their SentencePiece models and vocab.json, are converted with the CLI;
then teacher-forced log-probabilities equal transformers' (1e-4), and the greedy translations and
the beam-4 4-best lists of 100 sentences equal ``generate``'s, ids and text. ``generate`` is given
fanyi's length limit (a·|src| + b tokens, then EOS with its own probability) and raw
log-probability ranking (length_penalty 0 on both sides).
"""

from __future__ import annotations

import itertools
import json
import shutil

import pytest
import torch
from transformers import LogitsProcessor, LogitsProcessorList, MarianTokenizer

from fanyi.cli import main
from fanyi.decode.translator import Translator
from fanyi.interop import marian
from fanyi.interop.convert import read_weights
from fanyi.train.checkpoint import load_model
from tiny_marian import build, corpus

CASES = [("relu", "post", 3.0), ("swish", "pre", 4.0), ("gelu", "post", 3.0)]


class EosAtLimit(LogitsProcessor):
    """fanyi's limit for ``generate``: at ``length`` only EOS, keeping its log-probability."""

    def __init__(self, eos_id: int, length: int) -> None:
        self.eos_id, self.length = eos_id, length

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        if input_ids.size(1) == self.length:
            eos = scores[:, self.eos_id].clone()
            scores.fill_(float("-inf"))
            scores[:, self.eos_id] = eos
        return scores


@pytest.fixture(scope="module", params=CASES, ids=lambda case: "-".join(map(str, case[:2])))
def converted(request, tmp_path_factory):
    """(transformers model, its tokenizer, the converted fanyi directory)."""
    activation, norm, eos_bias = request.param
    root = tmp_path_factory.mktemp(f"marian-{activation}-{norm}")
    reference = build(root / "opus-mt-xx-en", activation, norm, eos_bias)
    assert main(["convert", str(root / "opus-mt-xx-en"), "-o", str(root / "fanyi")]) == 0
    tokenizer = MarianTokenizer.from_pretrained(root / "opus-mt-xx-en")
    return reference, tokenizer, root / "fanyi"


def test_log_probs_equal_transformers(converted):
    reference, _, directory = converted
    model, checkpoint = load_model(directory)
    assert checkpoint.data.langs == ("xx", "en")  # from the opus-mt-xx-en name
    pad, vocab = reference.config.pad_token_id, reference.config.vocab_size
    generator = torch.Generator().manual_seed(0)
    src = torch.randint(1, vocab - 1, (8, 12), generator=generator)
    src[2, 7:], src[5, 3:] = pad, pad
    tgt = torch.cat([torch.full((8, 1), pad), torch.randint(0, vocab - 1, (8, 10))], dim=1)
    with torch.no_grad():
        theirs = reference(input_ids=src, attention_mask=src != pad, decoder_input_ids=tgt)
        ours = model(src, tgt)
    assert (ours - theirs.logits.log_softmax(-1)).abs().max() <= 1e-4


def generate(reference, sources: list[list[int]], beam: int) -> list[list[list[int]]]:
    """transformers' n-best ids (no start, EOS or padding) per source, grouped by source length
    so that a batch shares one length limit and has no padding."""
    pad, eos = reference.config.pad_token_id, reference.config.eos_token_id
    results: list[list[list[int]]] = [[] for _ in sources]
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    for n, members in itertools.groupby(order, key=lambda i: len(sources[i])):
        group, limit = list(members), int(n * 1.5 + 10)
        search = (
            {"num_beams": beam, "length_penalty": 0.0, "early_stopping": True} if beam > 1 else {}
        )
        out = reference.generate(
            input_ids=torch.tensor([sources[i] for i in group]),
            do_sample=False,
            max_length=limit + 2,
            num_return_sequences=beam,
            bad_words_ids=[[pad]],
            forced_eos_token_id=None,
            logits_processor=LogitsProcessorList([EosAtLimit(eos, limit + 1)]),
            **search,
        ).tolist()
        for j, i in enumerate(group):
            for row in out[j * beam : (j + 1) * beam]:
                results[i].append([t for t in row[1:] if t not in (pad, eos)])
    return results


@pytest.mark.parametrize("beam", [1, 4])
def test_translations_equal_generate(converted, beam):
    reference, tokenizer, directory = converted
    texts = corpus(100, seed=1)[0]
    translator = Translator.load(directory, threads=1, beam=beam, length_penalty=0.0)
    ours = translator.translations(texts, n_best=beam)
    sources = [tokenizer(text).input_ids for text in texts]
    assert sources == [translator.source_ids(text, "en") for text in texts]
    theirs = generate(reference, sources, beam)
    vocab = translator.tgt_vocab
    ids = [[[vocab.piece_to_id(p) for p in c.tokens[:-1]] for c in r.candidates] for r in ours]
    assert ids == theirs
    texts_out = [[c.text for c in r.candidates] for r in ours]
    assert texts_out == [tokenizer.batch_decode(rows, skip_special_tokens=True) for rows in theirs]
    assert len({len(row[0]) for row in theirs}) > 10  # the lengths vary: a search, not a copy


def test_attention_maps_of_a_converted_model(converted):
    _, _, directory = converted
    translator = Translator.load(directory, threads=1, beam=2)
    maps = translator.cross_attention("bakomu rizo")
    assert maps.weights.shape[:2] == (2, 4)  # N_dec x h
    assert maps.weights.shape[2:] == (len(maps.target_tokens), len(maps.source_tokens))


@pytest.fixture(scope="module")
def plain_marian(tmp_path_factory):
    directory = tmp_path_factory.mktemp("plain") / "opus-mt-xx-en"
    build(directory, "swish", "post")
    return directory


@pytest.fixture
def marian_dir(plain_marian, tmp_path):
    """A copy of a tiny MarianMT directory, to break."""
    return shutil.copytree(plain_marian, tmp_path / "opus-mt-xx-en")


def test_a_pickle_only_checkpoint_is_refused_with_a_safe_way_out(marian_dir, capsys):
    import argparse

    (marian_dir / "model.safetensors").unlink()
    torch.save({"weights": argparse.Namespace(x=1)}, marian_dir / "pytorch_model.bin")
    assert main(["convert", str(marian_dir), "-o", str(marian_dir.parent / "out")]) == 2
    error = capsys.readouterr().err
    assert "does not unpickle" in error and "save_file" in error and "weights_only=False" in error
    assert not (marian_dir.parent / "out").exists()


def test_a_weights_only_pytorch_file_is_read(marian_dir):
    tensors = read_weights(marian_dir)
    (marian_dir / "model.safetensors").unlink()
    torch.save(tensors, marian_dir / "pytorch_model.bin")
    loaded = read_weights(marian_dir)
    assert loaded.keys() == tensors.keys()
    assert all(torch.equal(loaded[k], tensors[k]) for k in tensors)


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("normalize_embedding", True, "normalize_embedding"),
        ("static_position_embeddings", False, "static_position_embeddings"),
        ("activation_function", "gelu_new", "activation_function 'gelu_new'"),
        ("decoder_ffn_dim", 128, "encoder_ffn_dim differs from decoder_ffn_dim"),
        ("model_type", "bart", "model_type 'bart'"),
    ],
)
def test_an_unsupported_feature_is_refused_by_name(marian_dir, capsys, key, value, named):
    config = json.loads((marian_dir / "config.json").read_text())
    config[key] = value
    (marian_dir / "config.json").write_text(json.dumps(config))
    assert main(["convert", str(marian_dir), "-o", str(marian_dir.parent / "out")]) == 2
    assert named in capsys.readouterr().err


def test_an_unknown_weight_is_refused_by_name():
    config = marian.model_config(
        {"model_type": "marian", "vocab_size": 10, "d_model": 4, "encoder_ffn_dim": 8,
         "encoder_attention_heads": 2, "encoder_layers": 0, "decoder_layers": 0,
         "pad_token_id": 9, "decoder_start_token_id": 9, "eos_token_id": 0}
    )  # fmt: skip
    weights = {
        "model.shared.weight": torch.zeros(10, 4),
        "model.encoder.layernorm_embedding.weight": torch.ones(4),
    }
    with pytest.raises(ValueError, match="layernorm_embedding"):
        marian.fanyi_state(weights, config)


def test_a_name_that_is_no_directory_is_fetched_from_the_hub(tmp_path, capsys, monkeypatch):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)  # fail at once
    assert main(["convert", "Helsinki-NLP/opus-mt-zh-en", "-o", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert "not a local directory" in error and "OfflineModeIsEnabled" in error

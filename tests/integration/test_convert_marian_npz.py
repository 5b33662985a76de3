"""``fanyi convert`` of a Marian release (``model.npz``, ``*.vocab.yml``, ``source.spm``,
``target.spm``, ``decoder.yml``, as OPUS-MT's zips hold them) computes what the MarianMT model
it was written from computes.

The release is written here from a tiny MarianMT model in Marian's own layout, as transformers'
converter reads it (``convert_marian_to_pytorch.py``): names ``encoder_l1_self_Wq``…, every
matrix transposed (Marian's W is in × out: ``encoder_l1_ffn_W1`` is d_model × d_ff), biases and
LayerNorms as rows, the vocabulary and the embeddings without ``<pad>``, the options as YAML
text under ``special:model.yml``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from transformers import MarianTokenizer

from fanyi.cli import main
from fanyi.interop.marian_npz import LAYER
from fanyi.model_dir import load_model
from fanyi.translate.translator import Translator
from hf_reference import generate
from tiny_marian import build, corpus

OPTIONS = {
    "type": "transformer", "dim-emb": 32, "enc-depth": 2, "dec-depth": 2,
    "transformer-heads": 4, "transformer-dim-ffn": 64, "transformer-ffn-activation": "swish",
    "tied-embeddings-all": True, "transformer-preprocess": "", "transformer-postprocess": "dan",
    "transformer-postprocess-emb": "d", "transformer-train-position-embeddings": False,
    "right-left": False, "transformer-ffn-depth": 2,
}  # fmt: skip


def write_release(reference, hf: Path, release: Path, **options) -> None:
    """The Marian release of MarianMT model ``reference`` (whose files are in ``hf``)."""
    release.mkdir(parents=True)
    state = {k: v.detach().numpy() for k, v in reference.state_dict().items()}
    table = yaml.safe_load((hf / "vocab.json").read_text())  # JSON is YAML
    pad = table.pop("<pad>")
    arrays = {
        "Wemb": state["model.shared.weight"][:pad],
        "decoder_ff_logit_out_b": state["final_logits_bias"][:, :pad],
    }
    marian_name = {theirs: ours for ours, theirs in LAYER.items()}
    for name, value in state.items():
        stack, _, rest = name.removeprefix("model.").partition(".layers.")
        if rest:
            number, _, theirs = rest.partition(".")
            key = f"{stack}_l{int(number) + 1}_{marian_name[theirs]}"
            arrays[key] = value[None] if value.ndim == 1 else value.T
    options = {**OPTIONS, "dim-vocabs": [pad, pad], **options}
    text = yaml.safe_dump(options)  # Marian's own YAML: true/false, numbers, strings
    arrays["special:model.yml"] = np.frombuffer(text.encode() + b"\0", dtype=np.int8)
    np.savez(release / "opus.spm32k-spm32k.transformer.model1.npz.best-perplexity.npz", **arrays)
    (release / "opus.spm32k-spm32k.vocab.yml").write_text(yaml.safe_dump(table, allow_unicode=True))
    (release / "decoder.yml").write_text("beam-size: 6\nnormalize: 1\n")
    for name in ("source.spm", "target.spm"):
        shutil.copyfile(hf / name, release / name)


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """(transformers model, its tokenizer, the tiny MarianMT directory, the fanyi directory
    converted from the Marian release written from it)."""
    root = tmp_path_factory.mktemp("npz")
    reference = build(root / "hf", "swish", eos_bias=4.0)
    with torch.no_grad():
        reference.final_logits_bias[0, reference.config.pad_token_id] = 0  # as Marian pads
    write_release(reference, root / "hf", root / "release" / "opus-mt-xx-en")
    assert (
        main(["convert", str(root / "release" / "opus-mt-xx-en"), "-o", str(root / "fanyi")]) == 0
    )
    return reference, MarianTokenizer.from_pretrained(root / "hf"), root / "hf", root / "fanyi"


def test_log_probs_equal_the_marianmt_models(released):
    reference, _, _, directory = released
    model, checkpoint = load_model(directory)
    assert checkpoint.decode == {"beam": 6}  # decoder.yml's beam-size
    pad, vocab = reference.config.pad_token_id, reference.config.vocab_size
    generator = torch.Generator().manual_seed(0)
    src = torch.randint(1, vocab - 1, (8, 12), generator=generator)
    src[2, 7:] = pad
    tgt = torch.cat([torch.full((8, 1), pad), torch.randint(0, vocab - 1, (8, 10))], dim=1)
    with torch.no_grad():
        theirs = reference(input_ids=src, attention_mask=src != pad, decoder_input_ids=tgt)
        ours = model(src, tgt)
    assert (ours - theirs.logits.log_softmax(-1)).abs().max() <= 1e-4


@pytest.mark.slow  # 100 sentences through both (about 6 s)
def test_translations_equal_generate(released):
    reference, tokenizer, _, directory = released
    texts = corpus(50, seed=1)[0]
    translator = Translator.load(directory, beam=1, dtype="fp32")
    sources = [tokenizer(text).input_ids for text in texts]
    assert sources == [translator.text.ids(text, "en") for text in texts]
    theirs = [rows[0] for rows in generate(reference, sources, 1)]
    ours = translator(texts)
    assert ours == tokenizer.batch_decode(theirs, skip_special_tokens=True)
    assert len(set(ours)) > 10  # a search, not a constant


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"transformer-preprocess": "n"}, "unsupported Marian option: transformer-preprocess: 'n'"),
        ({"tied-embeddings-all": False, "tied-embeddings": False}, "tied-embeddings: False"),
        ({"type": "s2s"}, "unsupported Marian option: type: 's2s'"),
        ({"dim-vocabs": [5, 5]}, "dim-vocabs [5, 5]"),
    ],
)
def test_a_marian_option_marianmt_lacks_is_refused_by_name(
    released, tmp_path, capsys, options, message
):
    reference, _, hf, _ = released
    write_release(reference, hf, tmp_path / "opus-mt-xx-en", **options)
    assert main(["convert", str(tmp_path / "opus-mt-xx-en"), "-o", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err


def test_an_npz_of_pickled_objects_is_refused_unread(tmp_path, capsys):
    release = tmp_path / "opus-mt-xx-en"
    release.mkdir()
    np.savez(release / "model.npz", x=np.array([{"a": 1}], dtype=object))
    assert main(["convert", str(release), "-o", str(tmp_path / "out")]) == 2
    assert "not a Marian model of plain arrays" in capsys.readouterr().err


def test_an_opennmt_py_checkpoint_is_refused_with_the_reason(tmp_path, capsys):
    import argparse

    torch.save({"model": {}, "opt": argparse.Namespace(layers=6)}, tmp_path / "model_step_1000.pt")
    assert main(["convert", str(tmp_path / "model_step_1000.pt"), "-o", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert "does not convert OpenNMT-py" in error and "docs/interop.md" in error

"""``fanyi convert`` of a MarianMT checkpoint computes what transformers computes.

Tiny MarianMT models with random weights (``tests/tiny_marian.py``), saved with
``save_pretrained`` beside their SentencePiece models and vocab.json, are converted with the CLI;
then teacher-forced log-probabilities (1e-4) and cross-attention maps (1e-5) equal transformers',
and the greedy translations and the beam-4 4-best lists of 100 sentences equal ``generate``'s,
ids and text (``generate`` under fanyi's length limit and raw log-probability ranking:
``hf_reference.py``).
"""

from __future__ import annotations

import json
import shutil

import pytest
import torch
import yaml
from transformers import MarianTokenizer

from fanyi import config as config_io
from fanyi.cli import main
from fanyi.interop import marian
from fanyi.interop.convert import read_weights
from fanyi.model import ModelConfig, build_model
from fanyi.model_dir import load_model, write_model_dir
from fanyi.translate.translator import Translator
from hf_reference import generate
from tiny_marian import build, corpus

pytestmark = pytest.mark.slow  # builds and converts three MarianMT models (about 1.5 minutes)

# (activation, one embedding matrix or three, weights file, EOS bias)
CASES = [
    ("relu", True, "safetensors", 3.0),
    ("swish", False, "safetensors", 1.0),
    ("gelu", True, "bin", 3.0),  # every alias of the tied embeddings, as transformers 4.x writes
]


def case_name(case: tuple) -> str:
    return f"{case[0]}-{'tied' if case[1] else 'untied'}-{case[2]}"


@pytest.fixture(scope="module", params=CASES, ids=case_name)
def converted(request, tmp_path_factory):
    """(transformers model, its tokenizer, the converted fanyi directory)."""
    activation, tied, weights, eos_bias = request.param
    root = tmp_path_factory.mktemp(case_name(request.param))
    reference = build(root / "opus-mt-xx-en", activation, tied, weights, eos_bias)
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


@pytest.mark.parametrize("beam", [1, 4])
def test_translations_equal_generate(converted, beam):
    reference, tokenizer, directory = converted
    texts = corpus(100, seed=1)[0]
    translator = Translator.load(directory, beam=beam, length_penalty=0.0, dtype="fp32")
    ours = translator.translate(texts, n_best=beam)
    sources = [tokenizer(text).input_ids for text in texts]
    assert sources == [translator.text.ids(text, "en") for text in texts]
    theirs = generate(reference, sources, beam)
    vocab = translator.text.tgt_vocab
    ids = [[[vocab.piece_to_id(p) for p in c.tokens[:-1]] for c in r.candidates] for r in ours]
    assert ids == theirs
    texts_out = [[c.text for c in r.candidates] for r in ours]
    assert texts_out == [tokenizer.batch_decode(rows, skip_special_tokens=True) for rows in theirs]
    assert len({len(row[0]) for row in theirs}) > 10  # the lengths vary: a search, not a copy


def test_a_converted_model_runs_on_ctranslate2(converted, tmp_path):
    """OPUS-MT → fanyi → CTranslate2: greedy translations identical. Beam search agrees on 95 of
    100 in each variant: the rest reach their length limit, where fanyi forces EOS and CTranslate2
    stops (docs/interop.md), or meet a near-tie that random weights make common (the bundled
    model: 1,000 of 1,000 each way, test_export.py and benchmarks/end_to_end.py
    --in-process)."""
    _, _, directory = converted
    assert (
        main(["export", str(directory), "--format", "ctranslate2", "-o", str(tmp_path / "ct2")])
        == 0
    )
    texts = corpus(100, seed=1)[0]
    for beam, floor in ((1, 100), (4, 90)):
        ours = Translator.load(directory, beam=beam, length_penalty=0.0, dtype="fp32")
        theirs = Translator.load(
            tmp_path / "ct2", engine="ctranslate2", beam=beam, length_penalty=0.0
        )
        same = sum(a == b for a, b in zip(ours(texts), theirs(texts), strict=True))
        assert same >= floor, (beam, same)


def test_attention_maps_of_a_converted_model_are_transformers_cross_attentions(
    converted, monkeypatch
):
    reference, tokenizer, directory = converted
    translator = Translator.load(directory, beam=2, dtype="fp32")
    maps = translator.cross_attention("bakomu rizo")
    src = tokenizer("bakomu rizo", return_tensors="pt").input_ids  # 1 x s
    pieces = maps.target_tokens[:-1]  # the decoder reads BOS and all but the last (EOS)
    start = reference.config.decoder_start_token_id
    tgt = torch.tensor([[start, *map(translator.text.tgt_vocab.piece_to_id, pieces)]])
    monkeypatch.setattr(reference.config, "_attn_implementation", "eager")  # it returns weights
    with torch.no_grad():
        theirs = reference(input_ids=src, decoder_input_ids=tgt, output_attentions=True)
    expected = torch.stack([layer[0] for layer in theirs.cross_attentions])  # N_dec x h x t x s
    assert maps.weights.shape == (2, 4, len(maps.target_tokens), len(maps.source_tokens))
    torch.testing.assert_close(maps.weights, expected, rtol=0, atol=1e-5)


@pytest.fixture(scope="module")
def plain_marian(tmp_path_factory):
    directory = tmp_path_factory.mktemp("plain") / "opus-mt-xx-en"
    build(directory, "swish")
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
        ("normalize_before", True, "normalize_before: True"),  # transformers ignores both keys
        ("add_final_layer_norm", True, "add_final_layer_norm: True"),
    ],
)
def test_an_unsupported_feature_is_refused_by_name(marian_dir, capsys, key, value, named):
    config = json.loads((marian_dir / "config.json").read_text())
    config[key] = value
    (marian_dir / "config.json").write_text(json.dumps(config))
    assert main(["convert", str(marian_dir), "-o", str(marian_dir.parent / "out")]) == 2
    assert named in capsys.readouterr().err


def test_an_unknown_weight_is_refused_by_name(marian_dir):
    config = marian.model_config(json.loads((marian_dir / "config.json").read_text()))
    weights = read_weights(marian_dir)
    weights["model.encoder.layernorm_embedding.weight"] = torch.ones(config.d_model)
    with pytest.raises(ValueError, match="layernorm_embedding"):
        marian.fanyi_state(weights, config)


def test_a_name_that_is_no_directory_is_fetched_from_the_hub(tmp_path, capsys, monkeypatch):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)  # fail at once
    assert main(["convert", "Helsinki-NLP/opus-mt-zh-en", "-o", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert "not a local directory" in error and "OfflineModeIsEnabled" in error


def test_tied_aliases_that_differ_are_refused(marian_dir, capsys):
    """transformers 4.x's pytorch_model.bin stores a tied matrix under each of its names: equal
    copies are one matrix (the "gelu" case above); copies that differ are no tied matrix."""
    state = read_weights(marian_dir)
    (marian_dir / "model.safetensors").unlink()
    state["lm_head.weight"] = state["model.shared.weight"] + 1
    torch.save(state, marian_dir / "pytorch_model.bin")
    assert main(["convert", str(marian_dir), "-o", str(marian_dir.parent / "out")]) == 2
    assert "model.shared.weight and lm_head.weight differ" in capsys.readouterr().err


def test_the_converted_config_holds_no_corpus_settings(converted):
    """No corpus was prepared for a converted model: its data section says only how its text is
    read (languages, no normalisation), not a default out_dir or vocab_size."""
    sections = yaml.safe_load((converted[2] / "config.yaml").read_text(encoding="utf-8"))
    assert sections["data"] == {
        "train": "",
        "src_lang": "xx",
        "tgt_lang": "en",
        "columns": {"xx": 0, "en": 1},
        "nfkc": False,
        "t2s": False,
    }


def test_generation_settings_survive_a_round_trip(marian_dir, tmp_path):
    """OPUS-MT's num_beams becomes the converted model's beam, and the Hugging Face export writes
    what opus-mt's generation_config.json holds (generate() would otherwise stop at 20 tokens)."""
    generation = json.loads((marian_dir / "generation_config.json").read_text())
    (marian_dir / "generation_config.json").write_text(json.dumps({**generation, "num_beams": 3}))
    assert main(["convert", str(marian_dir), "-o", str(tmp_path / "fanyi")]) == 0
    assert load_model(tmp_path / "fanyi")[1].decode == {"beam": 3}
    assert (
        main(
            [
                "export",
                str(tmp_path / "fanyi"),
                "--format",
                "huggingface",
                "-o",
                str(tmp_path / "hf"),
            ]
        )
        == 0
    )
    exported = json.loads((tmp_path / "hf" / "generation_config.json").read_text())
    pad = generation["pad_token_id"]
    assert exported | {"max_length": 128, "num_beams": 3} == exported  # 128: the model's positions
    assert exported["bad_words_ids"] == [[pad]] and exported["decoder_start_token_id"] == pad
    assert (
        main(
            [
                "convert",
                str(tmp_path / "hf"),
                "-o",
                str(tmp_path / "back"),
                "--src-lang",
                "xx",
                "--tgt-lang",
                "en",
            ]
        )
        == 0
    )
    assert load_model(tmp_path / "back")[1].decode == {"beam": 3}


def test_a_pre_norm_model_runs_on_ctranslate2(plain_marian, tmp_path):
    """A pre-norm model with final LayerNorms (MarianMT has none to convert, fanyi trains them):
    CTranslate2 gives fanyi's greedy translations."""
    assert main(["convert", str(plain_marian), "-o", str(tmp_path / "post")]) == 0
    sections = yaml.safe_load((tmp_path / "post" / "config.yaml").read_text(encoding="utf-8"))
    sections["model"] |= {"norm": "pre", "final_norm": True}
    torch.manual_seed(0)
    model = build_model(config_io.from_dict(ModelConfig, sections["model"])).eval()
    files = [tmp_path / "post" / name for name in ("source.spm", "target.spm", "vocab.json")]
    write_model_dir(tmp_path / "pre", model, sections, files)
    assert (
        main(
            [
                "export",
                str(tmp_path / "pre"),
                "--format",
                "ctranslate2",
                "-o",
                str(tmp_path / "ct2"),
            ]
        )
        == 0
    )
    texts = corpus(50, seed=1)[0]
    ours = Translator.load(tmp_path / "pre", beam=1, dtype="fp32")(texts)
    assert Translator.load(tmp_path / "ct2", engine="ctranslate2", beam=1)(texts) == ours
    assert len(set(ours)) > 10

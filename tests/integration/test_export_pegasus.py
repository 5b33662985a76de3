"""``fanyi export --format huggingface`` of a pre-norm model writes Pegasus, which transformers
runs as fanyi does: small pre-norm models with random weights (the bundled model's vocabulary
and settings), tied and interleaved with relu as the bundled model, untied and concat with gelu;
their logits within 1e-4 of fanyi's, greedy generation equal, and ``fanyi convert`` reads the
export back. What Pegasus cannot compute is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
import yaml
from transformers import AutoTokenizer, MarianTokenizer, PegasusForConditionalGeneration

from fanyi.cli import main
from fanyi.config import to_dict
from fanyi.decode import decode
from fanyi.decode.options import SearchOptions
from fanyi.filenames import CONFIG_FILE
from fanyi.interop.convert import convert_marian
from fanyi.interop.pegasus import pegasus_config
from fanyi.model import ModelConfig, Transformer, build_model
from fanyi.model_dir import load_model, read_checkpoint, write_model_dir
from fanyi.translate.model_names import BUNDLED
from fanyi.translate.translator import Translator
from hf_reference import generate
from tiny_model import tiny_config

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
VARIANTS = {
    "tied-interleaved-relu": {"tie_embeddings": True},
    "untied-concat-gelu": {
        "tie_embeddings": False,
        "sinusoid_layout": "concat",
        "activation": "gelu",
        "scale_embeddings": False,
        "final_norm": True,
    },
}
GREEDY = SearchOptions(beam=1, length_penalty=0.0, target_script_only=False)


def pre_norm_config(**changes: object) -> ModelConfig:
    """A small pre-norm model over the bundled model's 16,000 pieces, 2 + 1 layers."""
    vocab = read_checkpoint(BUNDLED).model.src_vocab_size
    return tiny_config(vocab, **{"norm": "pre", "N_dec": 1, "max_len": 128, **changes})


@pytest.fixture(scope="module", params=list(VARIANTS))
def exported(request, tmp_path_factory) -> tuple[Transformer, Path, Path]:
    """(fanyi model, its directory, its Hugging Face export), the export by the CLI."""
    root = tmp_path_factory.mktemp(request.param)
    torch.manual_seed(0)
    model = build_model(pre_norm_config(**VARIANTS[request.param])).eval()
    with torch.no_grad():  # peaked, like a trained model's: fewer near-ties in greedy search
        model.generator.proj.weight.mul_(4.0)
        model.generator.proj.bias.normal_(0.0, 1.0)
    sections = yaml.safe_load((BUNDLED / CONFIG_FILE).read_text(encoding="utf-8"))
    sections["model"] = to_dict(model.config)
    checkpoint = read_checkpoint(BUNDLED)
    write_model_dir(root / "fanyi", model, sections, [checkpoint.src_spm])
    command = ["export", "-m", str(root / "fanyi"), "--format", "huggingface"]
    assert main([*command, "-o", str(root / "hf")]) == 0
    return load_model(root / "fanyi")[0], root / "fanyi", root / "hf"


def sources(n: int = 24, seed: int = 1) -> list[list[int]]:
    """``n`` random sources of 3-20 pieces, each ending in EOS (id 3)."""
    generator = torch.Generator().manual_seed(seed)
    lengths = torch.randint(3, 21, (n,), generator=generator).tolist()
    return [[*torch.randint(5, 16000, (k,), generator=generator).tolist(), 3] for k in lengths]


def test_the_export_is_pegasus_starting_from_fanyis_start_token(exported):
    model, _, out = exported
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    c = model.config
    assert config["model_type"] == "pegasus"
    assert config["architectures"] == ["PegasusForConditionalGeneration"]
    assert (config["encoder_layers"], config["decoder_layers"]) == (c.N_enc, c.N_dec)
    assert config["decoder_start_token_id"] == c.bos_id
    assert config["tie_word_embeddings"] == c.tie_embeddings


def test_logits_are_fanyis(exported):
    """Teacher-forced logits of a padded batch within 1e-4 of fanyi's."""
    model, _, out = exported
    pegasus = PegasusForConditionalGeneration.from_pretrained(out).eval()
    batch = sources(6)
    width = max(map(len, batch))
    src = torch.tensor([ids + [0] * (width - len(ids)) for ids in batch])
    tgt = torch.cat([torch.full((6, 1), 2), torch.randint(5, 16000, (6, 9))], dim=1)
    with torch.no_grad():
        mask = model.source_mask(src)
        ours = model.generator.logits(model.decode(tgt, model.encode(src, mask), mask)[0])
        theirs = pegasus(input_ids=src, attention_mask=src.ne(0), decoder_input_ids=tgt).logits
    assert (ours - theirs).abs().max() < 1e-4


def test_greedy_generation_is_fanyis(exported):
    model, _, out = exported
    pegasus = PegasusForConditionalGeneration.from_pretrained(out).eval()
    batch = sources()
    theirs = [rows[0] for rows in generate(pegasus, batch, 1)]
    ours = [decode(model, torch.tensor([ids]), GREEDY)[0][0].tokens for ids in batch]
    assert ours == theirs
    assert len({tuple(t) for t in ours}) > len(batch) // 2  # not one degenerate output


def test_auto_tokenizer_reads_fanyis_ids(exported):
    """AutoTokenizer finds MarianTokenizer (tokenizer_config.json names it): the source's ids are
    fanyi's, its language tag ``>>en<<`` included, and decoding gives the text back."""
    _, _, out = exported
    tokenizer = AutoTokenizer.from_pretrained(out)
    assert isinstance(tokenizer, MarianTokenizer)
    text = Translator.load(BUNDLED).text
    for line, to in (("我们明天去北京。", "en"), ("Where is the station?", "zh")):
        ids = text.ids(line, to)
        assert tokenizer(f">>{to}<< {line}").input_ids == ids
        assert tokenizer.decode(ids[1:], skip_special_tokens=True) == line


def test_convert_reads_the_export_back(exported, tmp_path):
    """Pegasus → fanyi: a pre-norm model with final LayerNorms in the concat layout, whose
    greedy translations are the original's."""
    model, _, out = exported
    assert main(["convert", str(out), "-o", str(tmp_path / "back")]) == 0
    back, checkpoint = load_model(tmp_path / "back")
    c = checkpoint.model
    assert (c.norm, c.has_final_norm, c.sinusoid_layout) == ("pre", True, "concat")
    assert c.tie_embeddings == model.config.tie_embeddings
    for ids in sources(12, seed=2):
        src = torch.tensor([ids])
        ours = decode(model, src, GREEDY)[0][0]
        again = decode(back, src, GREEDY, c.bos_id, c.eos_id)[0][0]
        assert again.tokens == ours.tokens and abs(again.log_prob - ours.log_prob) < 1e-4


@pytest.mark.parametrize(
    "changes, named",
    [
        ({"final_norm": False}, "no final LayerNorms (final_norm: false)"),
        ({"positional": "learned"}, "positional: learned"),
        ({"src_vocab_size": 100}, "separate vocabularies"),
        ({"norm": "post"}, "norm: post (export it as MarianMT)"),
    ],
)
def test_what_pegasus_cannot_compute_is_refused_by_name(changes, named):
    with pytest.raises(ValueError, match="cannot compute") as error:
        pegasus_config(pre_norm_config(**changes))
    assert named in str(error.value) and "--format ctranslate2" in str(error.value)


def test_a_pegasus_config_that_transformers_would_compute_otherwise_is_refused(exported, tmp_path):
    _, _, out = exported
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    for key, value in {"normalize_before": False, "static_position_embeddings": False}.items():
        broken = tmp_path / key
        broken.mkdir()
        for path in out.iterdir():
            (broken / path.name).symlink_to(path)
        (broken / "config.json").unlink()
        (broken / "config.json").write_text(json.dumps(config | {key: value}), encoding="utf-8")
        with pytest.raises(ValueError, match=f"unsupported Pegasus feature: {key}"):
            convert_marian(str(broken), tmp_path / f"{key}-out")


def test_export_takes_one_model_as_dash_m_or_first_argument(exported, tmp_path, capsys):
    """``-m`` and the first argument name the same thing; two different models are refused
    before anything is written."""
    _, model_dir, _ = exported
    command = ["export", str(model_dir), "-m", str(model_dir), "--format", "huggingface"]
    assert main([*command, "-o", str(tmp_path / "same")]) == 0
    command = ["export", str(model_dir), "-m", str(BUNDLED), "--format", "huggingface"]
    assert main([*command, "-o", str(tmp_path / "two")]) == 2
    assert "two models given" in capsys.readouterr().err and not (tmp_path / "two").exists()

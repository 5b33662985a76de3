"""`fanyi ensemble`: trained models put together in one directory that translates as one, tuned
like a model, refused clearly where one model's weights are needed."""

from pathlib import Path

import pytest
import torch
import yaml

from fanyi import Translator
from fanyi.cli import main
from fanyi.decode.ensemble import Ensemble
from fanyi.engines.native import NativeEngine
from fanyi.ensemble_dir import ensemble_members, first_member, write_ensemble_dir
from fanyi.filenames import CONFIG_FILE
from fanyi.model_dir import load_model, write_decode_defaults, write_model_dir
from tiny_translator import tiny_de_en_model_dir, tiny_model_dir

TEXTS = ["我们走吧。", "Tom is here.", "他很高兴。她也是。"]


@pytest.fixture(scope="module")
def members(tmp_path_factory) -> tuple[Path, Path]:
    """The tiny zh⇄en model, and a second one: its weights perturbed (same vocabulary)."""
    first = tiny_model_dir(tmp_path_factory)
    model, checkpoint = load_model(first)
    torch.manual_seed(0)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.add_(0.05 * torch.randn_like(parameter))
    sections = yaml.safe_load((first / CONFIG_FILE).read_text(encoding="utf-8"))
    out = tmp_path_factory.mktemp("members") / "perturbed"
    return first, write_model_dir(out, model, sections, [checkpoint.src_spm, checkpoint.tgt_spm])


@pytest.fixture(scope="module")
def ensemble_dir(members, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ensemble") / "ens"
    assert main(["ensemble", str(members[0]), str(members[1]), "-o", str(out)]) == 0
    return out


def test_the_directory_holds_each_member_s_model_only(ensemble_dir):
    config = yaml.safe_load((ensemble_dir / CONFIG_FILE).read_text(encoding="utf-8"))
    assert config["ensemble"] == ["member-1", "member-2"]
    for member in ensemble_members(ensemble_dir) or []:
        names = sorted(p.name for p in member.iterdir())
        # no training state; the vocabulary's truecase table (fanyi prepare wrote it) travels too
        assert names == ["config.yaml", "model.safetensors", "spm.model", "truecase.txt"]
    assert first_member(ensemble_dir) == ensemble_dir / "member-1"
    words = (ensemble_dir / "member-1" / "truecase.txt").read_text(encoding="utf-8").split()
    assert Translator.load(ensemble_dir).text.lowercase == set(words)  # its first member's
    assert (
        Translator.load(first_member(ensemble_dir)).engine.model is not None
    )  # a model of its own


def test_it_translates_as_its_members_decoding_together(members, ensemble_dir):
    loaded = Translator.load(ensemble_dir, beam=3, dtype="fp32")
    single = Translator.load(members[0], beam=3, dtype="fp32")
    ensemble = Ensemble([load_model(m)[0] for m in members])
    by_hand = Translator(
        NativeEngine(ensemble, single.checkpoint, loaded.engine.options), loaded.options
    )
    assert isinstance(loaded.engine.model, Ensemble)

    def scored(translator: Translator) -> list[tuple[str, float]]:
        results = translator.translate(TEXTS, n_best=3)
        return [(c.text, round(c.log_prob, 4)) for r in results for c in r.candidates]

    assert scored(loaded) == scored(by_hand)
    assert scored(loaded) != scored(single)  # not the first member alone


def test_a_model_twice_translates_as_the_model_alone(members, tmp_path):
    twice = write_ensemble_dir([members[0], members[0]], tmp_path / "twice")
    options = {"beam": 4, "dtype": "fp32", "rerank_backward": 0.5}
    expected = Translator.load(members[0], **options)(TEXTS)
    assert Translator.load(twice, **options)(TEXTS) == expected


def test_its_decoding_defaults_are_its_own(ensemble_dir, tmp_path):
    copy = write_ensemble_dir(ensemble_members(ensemble_dir) or [], tmp_path / "copy")
    write_decode_defaults(copy, {"length_penalty": 2.5, "beam": 2})
    assert ensemble_members(copy) == [copy / "member-1", copy / "member-2"]
    translator = Translator.load(copy)
    assert (translator.options.length_penalty, translator.options.beam) == (2.5, 2)
    assert translator.checkpoint.path == copy  # its name, as the server reports it
    write_decode_defaults(copy, {"beam": 0})
    with pytest.raises(ValueError, match=f"{copy / CONFIG_FILE}: decode: beam"):
        Translator.load(copy)


def test_members_must_read_text_alike(members, tmp_path_factory, tmp_path, capsys):
    de_en = tiny_de_en_model_dir(tmp_path_factory)
    argv = ["ensemble", str(members[0]), str(de_en), "-o", str(tmp_path / "mixed")]
    assert main(argv) == 2
    assert "differ in src_lang, source vocabulary, target vocabulary" in capsys.readouterr().err
    assert not (tmp_path / "mixed").exists()


def test_where_one_model_is_needed_an_ensemble_gives_its_first_member_or_is_refused(
    ensemble_dir, capsys, tmp_path
):
    out = tmp_path / "ct2"
    assert main(["export", str(ensemble_dir), "--format", "ctranslate2", "-o", str(out)]) == 0
    assert "is an ensemble: exporting its first member" in capsys.readouterr().err
    assert (out / "model.bin").is_file()
    with pytest.raises(ValueError, match="ctranslate2 engine decodes one model"):
        Translator.load(ensemble_dir, engine="ctranslate2")
    with pytest.raises(ValueError, match="no single attention map"):
        Translator.load(ensemble_dir).cross_attention("我们走吧。")


def test_a_member_outside_the_directory_is_refused(tmp_path):
    (tmp_path / CONFIG_FILE).write_text("ensemble: [member-1, ../elsewhere]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="outside the ensemble directory"):
        Translator.load(tmp_path)
    (tmp_path / CONFIG_FILE).write_text("ensemble: [member-1]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="two or more"):
        Translator.load(tmp_path)

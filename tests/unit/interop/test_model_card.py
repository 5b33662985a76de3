"""The model card of an export says what it can know, and no more: the licence of data it
recognises, "unknown" for data it does not, the original model's card for a converted one."""

import dataclasses
import shutil
from pathlib import Path

import pytest
import yaml

from fanyi.ensemble_dir import first_member
from fanyi.interop.model_card import model_card
from fanyi.sections import RunInfo, read_config
from fanyi.translate.model_names import TATOEBA

pytestmark = pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}")


@pytest.fixture
def checkpoint(tmp_path):
    """The bundled first member's configs, in a directory of their own (to edit)."""
    shutil.copyfile(first_member(TATOEBA) / "config.yaml", tmp_path / "config.yaml")
    return read_config(tmp_path)


def test_unknown_data_has_an_unknown_licence(checkpoint):
    data = dataclasses.replace(checkpoint.data, train="corpus/mine.tsv", extra_train=[])
    card = model_card(dataclasses.replace(checkpoint, data=data), Path("out"), "ctranslate2", 1)
    assert "`corpus/mine.tsv`: licence unknown; state it before you share this model" in card
    assert "license:" not in card


def test_a_converted_model_points_to_its_original(checkpoint):
    info = RunInfo(converted_from="Helsinki-NLP/opus-mt-zh-en")
    data = dataclasses.replace(
        checkpoint.data, nfkc=False, t2s=False, lang_tags=False, bidirectional=False
    )
    converted = dataclasses.replace(checkpoint, info=info, data=data)
    card = model_card(converted, Path("out"), "huggingface", 1)
    assert "from `Helsinki-NLP/opus-mt-zh-en`: its training data, licence and scores" in card
    assert "None: text goes to the SentencePiece model as it is" in card
    assert "normalise" not in card and ">>en<<" not in card


def test_a_model_without_scores_says_so(checkpoint):
    config = checkpoint.path / "config.yaml"
    sections = yaml.safe_load(config.read_text(encoding="utf-8"))
    del sections["scores"]
    config.write_text(yaml.safe_dump(sections, allow_unicode=True), encoding="utf-8")
    card = model_card(checkpoint, Path("out"), "ctranslate2", 1)
    assert "No scores are recorded in this model's `config.yaml`" in card


def test_malformed_scores_are_refused_by_name(checkpoint):
    config = checkpoint.path / "config.yaml"
    sections = yaml.safe_load(config.read_text(encoding="utf-8"))
    sections["scores"][0]["blue"] = 1.0
    config.write_text(yaml.safe_dump(sections, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ValueError, match="scores: unknown Score key"):
        model_card(checkpoint, Path("out"), "ctranslate2", 1)

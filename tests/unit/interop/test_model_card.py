"""The model card of an export says what it can know, and no more: the source and licence of
data it recognises (every corpus of the default model), what it does not know of other data, the
original model's card for a converted one."""

import dataclasses
import shutil
from pathlib import Path

import pytest
import yaml

from fanyi.ensemble_dir import first_member
from fanyi.interop.model_card import model_card
from fanyi.sections import RunInfo, read_config
from fanyi.translate.model_names import BUNDLED, TATOEBA

pytestmark = pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}")


@pytest.fixture
def checkpoint(tmp_path):
    """The bundled first member's configs, in a directory of their own (to edit)."""
    shutil.copyfile(first_member(TATOEBA) / "config.yaml", tmp_path / "config.yaml")
    return read_config(tmp_path)


def test_data_fanyi_does_not_know_is_named_as_such(checkpoint):
    data = dataclasses.replace(checkpoint.data, train="corpus/mine.tsv", extra_train=[])
    card = model_card(dataclasses.replace(checkpoint, data=data), Path("out"), "ctranslate2", 1)
    assert "`corpus/mine.tsv`: not a corpus fanyi knows, so its source and licence" in card
    assert "license:" not in card


def test_the_default_models_card_has_every_corpus_licence_and_its_scores():
    card = model_card(read_config(BUNDLED), Path("out"), "ctranslate2", 1)
    data = card.split("## Data and licence", 1)[1].split("\n## ", 1)[0]
    assert "unknown" not in data and "license: other" in card.split("---")[1]
    for corpus in (
        "Tatoeba",
        "hsk-sentences-audio",
        "python-docs-zh-cn",
        "django-docs-translations",
        "3AM",
        "WMT news test sets",
        "CC-CEDICT",
        "back-translated into Chinese",
        "News Commentary",
        "UN Parallel Corpus",
        "Leipzig",
    ):
        line = next(line for line in data.splitlines() if corpus in line)
        assert (line.startswith("- ") and "<http" in line) or "Tatoeba" in line, line
    assert "CC-BY 2.0 (France)" in data and "CC BY-SA 4.0 (CC-CEDICT" in data and "CC0 1.0" in data
    assert "Share-alike (hsk, cedict)" in data and "Research use only (wmt-news" in data
    scores = card.split("## Scores", 1)[1].split("\n## ", 1)[0]
    assert "| zh→en | WMT newstest2020 (first 300) |" in scores and "| 10.42 |" in scores
    assert "nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0" in scores


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

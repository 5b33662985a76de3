"""A model directory's config.yaml read as typed sections: the bundled ensemble and its members as
they are on disk, an ensemble's members as paths, keys of other versions ignored, bad values
refused with the file's name."""

from pathlib import Path

import pytest
import yaml

from fanyi.config import to_dict
from fanyi.data import DataConfig
from fanyi.ensemble_dir import read_ensemble
from fanyi.filenames import CONFIG_FILE
from fanyi.sections import RunInfo, VocabFiles, read_config
from fanyi.translate.model_names import TATOEBA
from tiny_model import tiny_config

bundled = pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}")


def _config(directory: Path, vocab: dict, checkpoint: dict | None = None) -> Path:
    sections = {"model": to_dict(tiny_config()), "data": to_dict(DataConfig()), "vocab": vocab}
    if checkpoint is not None:
        sections["checkpoint"] = checkpoint
    (directory / CONFIG_FILE).write_text(yaml.safe_dump(sections), encoding="utf-8")
    return directory


@bundled
def test_the_bundled_ensemble_reads_unchanged():
    checkpoints, ensemble = read_ensemble(TATOEBA)
    assert ensemble.members == [TATOEBA / "member-1", TATOEBA / "member-2"]
    assert ensemble.model_dirs == ensemble.members and ensemble.path == TATOEBA
    assert ensemble.vocab == VocabFiles("member-1/spm.model", "member-1/spm.model", joint=True)
    assert ensemble.src_spm == TATOEBA / "member-1" / "spm.model" and ensemble.src_spm.is_file()
    assert ensemble.decode["length_penalty"] == 3.0
    first = checkpoints[0]
    assert first.members == [] and first.model_dirs == [first.path]
    assert (first.info.step, first.info.dtype, first.info.fanyi) == (9567, "fp32", "0.1.0")
    assert first.info.averaged_from[0] == "step-0006500" and first.info.metrics == {}
    source, target = ensemble.vocabularies()
    assert source is target and source.encode("你好")


def test_sections_round_trip_as_written(tmp_path):
    vocab = VocabFiles("source.spm", "target.spm", joint=True, ids="vocab.json")
    info = RunInfo(fanyi="0.2.0", converted_from="Helsinki-NLP/opus-mt-zh-en")
    checkpoint = read_config(_config(tmp_path, vocab.section(), info.section()))
    assert checkpoint.vocab == vocab and checkpoint.info == info
    assert checkpoint.vocab.files() == ["source.spm", "target.spm", "vocab.json"]
    assert checkpoint.train is None and checkpoint.decode == {}
    assert VocabFiles("spm.model", "spm.model", joint=True).section() == {
        "src_model": "spm.model",
        "tgt_model": "spm.model",
        "joint": True,
    }
    assert info.section() == {"fanyi": "0.2.0", "converted_from": "Helsinki-NLP/opus-mt-zh-en"}


def test_keys_another_version_wrote_are_ignored(tmp_path):
    vocab = {"src_model": "spm.model", "tgt_model": "spm.model", "joint": True, "later": 1}
    checkpoint = read_config(_config(tmp_path, vocab, {"step": 7, "tokens_seen": 10**9}))
    assert checkpoint.info == RunInfo(step=7) and checkpoint.vocab.ids is None


@pytest.mark.parametrize(
    ("vocab", "checkpoint", "message"),
    [
        ({"tgt_model": "spm.model"}, {}, "src_model"),
        ({"src_model": "spm.model", "tgt_model": "spm.model"}, {"step": "many"}, "step"),
        ({"src_model": "../spm.model", "tgt_model": "spm.model"}, {}, "outside"),
        ({"src_model": "spm.model", "tgt_model": "spm.model"}, [1, 2], "checkpoint"),
    ],
)
def test_a_bad_section_is_refused_with_its_file(tmp_path, vocab, checkpoint, message):
    _config(tmp_path, vocab, checkpoint)
    with pytest.raises(ValueError, match=f"{CONFIG_FILE}.*{message}"):
        read_config(tmp_path)

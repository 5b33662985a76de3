"""`fanyi distill`: the model's translations of its own training sources, both ways, as a TSV
that the data config reads back as ``extra_train`` without touching the split."""

import dataclasses
from pathlib import Path

import pytest

from fanyi import Translator
from fanyi.cli import main
from fanyi.data.build import prepare
from fanyi.data.manifest import read_manifest, read_pairs
from fanyi.distill import NOTE, distill
from fanyi.text.lang import split_sentences
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # translates a training set


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    return tiny_model_dir(tmp_path_factory)


def data_of(model_dir: Path) -> Path:
    return Path(model_dir).parents[1] / "data"


def test_each_row_is_a_training_source_with_the_models_translation(trained, tmp_path):
    data, out = data_of(trained), tmp_path / "synthetic.tsv"
    translator = Translator.load(trained, beam=1)
    report = distill(translator, data, out, limit=25)
    rows = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == sum(report.written.values()) > 0
    columns = read_manifest(data).config.columns
    for to in translator.targets:  # the rows of each direction in turn
        pairs = read_pairs(data, "train", to, limit=25)
        mine, rows = rows[: report.written[to]], rows[report.written[to] :]
        sources = [row[columns[pairs.source_lang]] for row in mine]
        spaced = [" ".join(t.split()) for t in translator(sources, to=to)]  # a TSV cell's
        assert [row[columns[to]] for row in mine] == spaced
        assert all(len(row) == 3 and row[2] == NOTE for row in mine)
        references = dict(zip(pairs.sources, pairs.references, strict=True))
        assert all(references[s] != row[columns[to]] for s, row in zip(sources, mine, strict=True))
        singles = [s for s in pairs.sources if len(split_sentences(s, pairs.source_lang)) == 1]
        assert report.concatenated[to] == len(pairs.sources) - len(singles)
        assert report.written[to] + report.same_as_reference[to] == len(singles)
    assert rows == []


def test_the_synthetic_pairs_join_training_and_leave_dev_and_test_as_they_were(
    trained, tmp_path, capsys
):
    data, out = data_of(trained), tmp_path / "synthetic.tsv"
    assert main(["distill", "-m", str(trained), "--data", str(data), "-o", str(out),
                 "--beam", "1", "--limit", "20"]) == 0  # fmt: skip
    assert f"to {out}" in capsys.readouterr().out
    config = read_manifest(data).config
    again = dataclasses.replace(config, extra_train=[str(out)], out_dir=str(tmp_path / "plus"))
    manifest = prepare(again)
    for split in ("dev", "test"):
        for name in (f"{split}.src", f"{split}.tgt"):
            assert (tmp_path / "plus" / name).read_bytes() == (data / name).read_bytes()
    assert manifest.pairs["train"] > read_manifest(data).pairs["train"]
    train = (tmp_path / "plus" / "train.tgt").read_text(encoding="utf-8").splitlines()
    synthetic = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()]
    assert any(row[config.columns["en"]] in train for row in synthetic)

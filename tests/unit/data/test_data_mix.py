"""Several sources in one data set: per-corpus weights, and other sources' held-out sets kept out
of train on either side, without changing the split of the main corpus."""

import tempfile
from collections import Counter
from pathlib import Path

import pytest

from fanyi.data import DataConfig
from fanyi.data.build.assemble import assemble
from fanyi.data.build.prepare import clean_and_split, write_split


def _tsv(path, pairs):
    path.write_text("".join(f"{en}\t{zh}\tnote\n" for en, zh in pairs), encoding="utf-8")
    return str(path)


def _corpus(n, prefix):
    return [(f"{prefix} sentence number {i}.", f"{prefix}第{i}句。") for i in range(n)]


@pytest.fixture
def sources(tmp_path):
    main, docs = _corpus(200, "Main"), _corpus(300, "Docs")
    held = [docs[0], ("Another held sentence.", main[5][1])]  # shares a side with each corpus
    return {
        "train": _tsv(tmp_path / "main.tsv", main),
        "docs": _tsv(tmp_path / "docs.tsv", docs),
        "held": _tsv(tmp_path / "held.tsv", held),
    }


def _config(sources, **keys):
    return DataConfig(
        train=sources["train"], dev_size=20, test_size=20, t2s=False, out_dir="unused", **keys
    )


def test_held_out_sentences_leave_every_train_corpus_and_the_main_split_stays(sources):
    plain, _ = clean_and_split(_config(sources))
    mixed, reports = clean_and_split(
        _config(sources, extra_train=[sources["docs"]], held_out=[sources["held"]])
    )
    assert mixed["dev"] == plain["dev"] and mixed["test"] == plain["test"]
    assert ("Main第5句。", "Main sentence number 5.") not in mixed["train"]
    assert ("Docs第0句。", "Docs sentence number 0.") not in mixed["train"]
    assert reports["corpus"].dropped["overlap"] == 1 and reports["extra1"].dropped["overlap"] == 1
    assert len(mixed["train"]) == len(plain["train"]) - 1 + 299


def test_weights_repeat_or_sample_each_corpus(sources):
    docs = sources["docs"]
    once, _ = clean_and_split(_config(sources, extra_train=[docs]))
    weighted, _ = clean_and_split(
        _config(sources, extra_train=[docs], weights={"train": 2.0, docs: 0.5})
    )
    counts = Counter(weighted["train"])
    main = [p for p in once["train"] if p[1].startswith("Main")]
    assert all(counts[p] == 2 for p in main)
    sampled = [p for p in counts if p[1].startswith("Docs")]
    assert all(counts[p] == 1 for p in sampled) and 100 < len(sampled) < 200
    again, _ = clean_and_split(
        _config(sources, extra_train=[docs], weights={"train": 2.0, docs: 0.5})
    )
    assert again["train"] == weighted["train"]  # seeded


def test_weights_name_only_train_corpora():
    with pytest.raises(ValueError, match="not train or extra_train"):
        DataConfig(weights={"other.tsv": 2.0})
    with pytest.raises(ValueError, match="positive"):
        DataConfig(weights={"train": 0.0})


def test_a_one_way_corpus_is_only_translated_into_its_language(sources, tmp_path):
    """Back-translated pairs teach one direction: their synthetic side is never a target."""
    docs = sources["docs"]
    config = _config(
        sources, extra_train=[docs], one_way={docs: "en"}, bidirectional=True, lang_tags=True
    )
    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        assembled = assemble(config, Path(folder))
        lines = write_split(config, tmp_path, "train", assembled)
    src = (tmp_path / "train.src").read_text(encoding="utf-8").splitlines()
    tgt = (tmp_path / "train.tgt").read_text(encoding="utf-8").splitlines()
    assert len(src) == len(tgt) == lines
    into = Counter(
        (s.split(" ", 1)[0], t.startswith("Docs")) for s, t in zip(src, tgt, strict=True)
    )
    assert into[("<2en>", True)] == 300 and into[("<2zh>", True)] == 0  # docs → English only
    main = assembled.pairs["train"] - 300
    assert into[("<2en>", False)] == main and into[("<2zh>", False)] == main  # both ways


def test_a_forward_translated_corpus_is_only_translated_into_chinese(sources, tmp_path):
    """Forward-translated pairs: real English sources, synthetic Chinese targets only."""
    docs = sources["docs"]
    config = _config(
        sources, extra_train=[docs], one_way={docs: "zh"}, bidirectional=True, lang_tags=True
    )
    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        lines = write_split(config, tmp_path, "train", assemble(config, Path(folder)))
    src = (tmp_path / "train.src").read_text(encoding="utf-8").splitlines()
    assert len(src) == lines
    into = Counter((s.split(" ", 1)[0], s.split(" ", 1)[1].startswith("Docs")) for s in src)
    assert into[("<2zh>", True)] == 300 and into[("<2en>", True)] == 0


def test_one_way_names_an_extra_corpus_and_a_target_language(sources):
    with pytest.raises(ValueError, match="not an extra_train corpus"):
        _config(sources, one_way={sources["docs"]: "en"})
    with pytest.raises(ValueError, match="not a target language"):
        _config(sources, extra_train=[sources["docs"]], one_way={sources["docs"]: "zh"})

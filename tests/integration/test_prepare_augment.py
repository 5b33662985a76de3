"""Growing the train split of a prepared data directory: extra corpora (never dev/test
sentences), concatenated pairs, and a vocabulary taken from an existing model."""

import pytest

from fanyi.data import DataConfig
from fanyi.data.build import prepare

EN = ["I run.", "Tom is here.", "We try.", "Who are you?", "I like cats.", "It is late."]
ZH = ["我跑。", "汤姆在这里。", "我们试试。", "你是谁？", "我喜欢猫。", "很晚了。"]


def _corpus(path, n, offset=0):
    lines = [f"{EN[i % 6]} {i}\t{ZH[i % 6]}{i}\tx\n" for i in range(offset, offset + n)]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _config(tmp_path, **kwargs):
    values = {
        "train": str(_corpus(tmp_path / "main.tsv", 120)),
        "out_dir": str(tmp_path / "out"),
        "dev_size": 10,
        "test_size": 10,
        "vocab_size": 400,
        "character_coverage": 1.0,
        **kwargs,
    }
    return DataConfig(**values)


def _pairs(out, split):
    src = (out / f"{split}.src").read_text(encoding="utf-8").splitlines()
    tgt = (out / f"{split}.tgt").read_text(encoding="utf-8").splitlines()
    return list(zip(src, tgt, strict=True))


def test_extra_corpora_reach_train_only_and_never_a_held_out_sentence(tmp_path):
    base = prepare(_config(tmp_path))
    held_out = {
        s for split in ("dev", "test") for pair in _pairs(tmp_path / "out", split) for s in pair
    }
    # the extra corpus repeats the whole main corpus (so every dev/test sentence) and adds 40 new
    extra = _corpus(tmp_path / "extra.tsv", 160)
    config = _config(tmp_path, extra_train=[str(extra)], out_dir=str(tmp_path / "grown"))
    manifest = prepare(config)
    grown = tmp_path / "grown"
    for split in ("dev", "test"):
        assert _pairs(grown, split) == _pairs(tmp_path / "out", split)
    train = _pairs(grown, "train")
    assert not {s for pair in train for s in pair} & held_out
    assert len(train) == len(set(train)) == base.pairs["train"] + 40
    report = manifest.report["extra1"]
    assert report["dropped"] == {"overlap": 20, "duplicate": 100}
    assert "extra1" in manifest.inputs


def test_concat_augment_adds_joined_pairs_to_train(tmp_path):
    manifest = prepare(_config(tmp_path, concat_augment=0.5, concat_max=2))
    train = _pairs(tmp_path / "out", "train")
    assert manifest.concatenated_pairs == 50 == manifest.pairs["train"] - 100
    singles = dict(train[:100])  # source (Chinese) → target (English)
    for src, tgt in train[100:]:  # two pairs joined: Chinese without a space, English with one
        splits = [
            (src[:i], src[i:])
            for i in range(1, len(src))
            if src[:i] in singles and src[i:] in singles
        ]
        assert any(tgt == f"{singles[a]} {singles[b]}" for a, b in splits), (src, tgt)


def test_vocab_from_copies_an_existing_model_and_checks_its_tags(tmp_path):
    first = prepare(_config(tmp_path, bidirectional=True, lang_tags=True))
    model = tmp_path / "out" / first.vocab.src_model
    config = _config(
        tmp_path,
        bidirectional=True,
        lang_tags=True,
        vocab_from=str(model),
        out_dir=str(tmp_path / "b"),
    )
    second = prepare(config)
    assert (tmp_path / "b" / "spm.model").read_bytes() == model.read_bytes()
    assert second.vocab.tags == ["<2en>", "<2zh>"] and "vocab_from" in second.inputs
    untagged = prepare(_config(tmp_path, out_dir=str(tmp_path / "plain")))
    plain = tmp_path / "plain" / untagged.vocab.src_model
    tagged = _config(tmp_path, lang_tags=True, vocab_from=str(plain), out_dir=str(tmp_path / "c"))
    with pytest.raises(ValueError, match="lacks the tags <2en>"):
        prepare(tagged)
    with pytest.raises(ValueError, match="joint_vocab"):
        _config(tmp_path, joint_vocab=False, vocab_from=str(model))

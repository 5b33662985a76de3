"""Growing the train split: extra corpora (never dev/test sentences), concatenated pairs, a
vocabulary taken from an existing model, and the HSK sentences as a TSV."""

import json
import random

import pytest

from fanyi.data import DataConfig
from fanyi.data.build import prepare
from fanyi.data.build.augment import concatenations
from fanyi.data.build.hsk import hsk_pairs, write_hsk_tsv
from fanyi.lang import join_sentences

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


def test_joined_sentences_follow_each_language():
    assert join_sentences(["我跑。", "你呢？"], "zh") == "我跑。你呢？"
    assert join_sentences(["I run.", "You?"], "en") == "I run. You?"


def test_concatenations_join_2_to_max_random_pairs_deterministically():
    pairs = [(f"s{i}.", f"t{i}.") for i in range(50)]
    joined = list(concatenations(pairs, 0.4, 3, seed=7, langs=("en", "zh")))
    assert len(joined) == 20 and joined == list(concatenations(pairs, 0.4, 3, 7, ("en", "zh")))
    for src, tgt in joined:
        parts = src.split(" ")
        assert 2 <= len(parts) <= 3
        # the i-th sentence of the source is translated by the i-th of the target
        assert tgt == "".join(f"t{p[1:]}" for p in parts)
    assert list(concatenations(pairs, 0.0, 3, 7, ("en", "zh"))) == []
    assert list(concatenations(pairs[:1], 1.0, 3, 7, ("en", "zh"))) == []


def test_concatenations_draw_what_sampling_the_list_itself_drew():
    """Earlier versions drew ``rng.sample(pairs, k)`` from a list; indices into a file read at
    random must join the same pairs, or the bundled model's data would change."""
    pairs = [(f"s{i}.", f"t{i}.") for i in range(500)]
    rng, expected = random.Random(3), []
    for _ in range(100):
        chosen = rng.sample(pairs, rng.randint(2, 3))
        expected.append((" ".join(s for s, _ in chosen), "".join(t for _, t in chosen)))
    assert list(concatenations(pairs, 0.2, 3, 3, ("en", "zh"))) == expected


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


def test_hsk_sentences_become_a_tatoeba_style_tsv(tmp_path):
    rows = hsk_pairs()
    assert len(rows) > 4000
    count = write_hsk_tsv(tmp_path / "hsk.tsv")
    lines = (tmp_path / "hsk.tsv").read_text(encoding="utf-8").splitlines()
    assert count == len(lines) == len(rows)
    english, chinese, credit = lines[0].split("\t")
    assert english == "Hello, teacher!" and chinese == "老师，您好！"
    assert credit.endswith("CC-BY-SA-4.0")
    assert all(line.count("\t") == 2 for line in lines)
    json.dumps(rows[:1])  # plain strings

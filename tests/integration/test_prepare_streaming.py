"""The streaming prepare on the corpus slices: the same text, split and vocabulary as the
in-memory prepare of earlier versions made (the bundled model's test split depends on it), token
shards that hold exactly the ids of the text's lines, and the same outputs however many workers."""

import hashlib
from pathlib import Path

import pytest

from fanyi.data import DataConfig, load_vocabs
from fanyi.data.build import prepare
from fanyi.data.build.split import SPLITS
from fanyi.data.manifest import SIDES, split_file
from fanyi.data.shards import TokenShards, read_shard_index

SLICES = Path(__file__).resolve().parents[1] / "fixtures" / "data"
TATOEBA, MULTI30K = SLICES / "tatoeba-cmn-eng" / "cmn.txt", SLICES / "multi30k"

# sha256 (first 16 hex digits) of the outputs of fanyi's in-memory prepare (commit b027a1c) for
# the configs below; the .model files embed their path, so their .vocab stands for them.
EARLIER = {
    "tatoeba-bi-plus": {
        "dev.src": "e0301aa980d4e0d1",
        "dev.tgt": "8e998b2daefb6e05",
        "spm.vocab": "320e1e7e966d37bb",
        "test.src": "895a32d1479dff17",
        "test.tgt": "3a0af03bbde64fc9",
        "train.src": "5f32157459c0f66e",
        "train.tgt": "e43c6887ddc7588a",
    },
    "tatoeba-zh-en-bpe": {
        "dev.src": "c7ca10e181c39f70",
        "dev.tgt": "e9f0fdda0d009a25",
        "spm.src.vocab": "f15cdf091266f69e",
        "spm.tgt.vocab": "a09986042d25306a",
        "test.src": "86f3431ae86ab75c",
        "test.tgt": "ed768d85b70a472b",
        "train.src": "abbe54ddd3b37c93",
        "train.tgt": "974abbc30cb682e5",
    },
    "multi30k": {
        "dev.src": "b5a072ffb1cc1f11",
        "dev.tgt": "6033d4ad0e7e09bf",
        "spm.vocab": "c3f1da4058fbf6ad",
        "test.src": "434acde0f5ff237e",
        "test.tgt": "5017668da780f255",
        "train.src": "f3766a08464ada15",
        "train.tgt": "d1f69a0578f1d5f2",
    },
}
EARLIER_PAIRS = {
    "tatoeba-bi-plus": {"train": 3316, "dev": 100, "test": 100},
    "tatoeba-zh-en-bpe": {"train": 2706, "dev": 150, "test": 120},
    "multi30k": {"train": 1000, "dev": 100, "test": 100},
}


def _config(name: str, out: Path, **changes) -> DataConfig:
    if name == "tatoeba-bi-plus":  # split off, extra corpus (with duplicates), tags, concat
        extra = out.parent / "extra.tsv"
        extra.write_bytes(b"".join(TATOEBA.read_bytes().splitlines(keepends=True)[1500:3000]))
        values = dict(
            train=str(TATOEBA), limit=2000, extra_train=[str(extra)], bidirectional=True,
            lang_tags=True, dev_size=100, test_size=100, concat_augment=0.2, vocab_size=1500,
        )  # fmt: skip
    elif name == "tatoeba-zh-en-bpe":  # two vocabularies, another seed
        values = dict(
            train=str(TATOEBA), limit=3000, dev_size=150, test_size=120, joint_vocab=False,
            seed=7, vocab_size=2500, model_type="bpe",
        )  # fmt: skip
    else:  # aligned files with their own dev and test
        values = dict(
            format="aligned", train=f"{MULTI30K}/train", dev=f"{MULTI30K}/val",
            test=f"{MULTI30K}/test_2016_flickr", src_lang="de", tgt_lang="en", vocab_size=1000,
        )  # fmt: skip
    return DataConfig(**{**values, "out_dir": str(out), **changes})


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _assert_shards_hold_the_lines(out: Path) -> None:
    """Every line of every split file is, in its shard, exactly ``Vocab.encode`` of it."""
    vocabs, index = dict(zip(SIDES, load_vocabs(out), strict=True)), read_shard_index(out)
    for split in SPLITS:
        for side in SIDES:
            lines = (out / split_file(split, side)).read_text(encoding="utf-8").splitlines()
            shards = TokenShards(out, index, split, side)
            assert len(shards) == len(lines) == index.lines[split]
            assert shards[:] == [vocabs[side].encode(line) for line in lines]
            if side == "tgt":
                assert [vocabs[side].decode(ids) for ids in shards] == lines


@pytest.mark.parametrize(
    ("name", "workers"), [("tatoeba-bi-plus", 2), ("tatoeba-zh-en-bpe", 1), ("multi30k", 1)]
)
def test_streaming_prepare_gives_what_the_in_memory_prepare_gave(tmp_path, name, workers):
    out = tmp_path / "out"
    manifest = prepare(_config(name, out, shard_lines=700), workers=workers)
    assert {f: _digest(out / f) for f in EARLIER[name]} == EARLIER[name]
    assert manifest.pairs == EARLIER_PAIRS[name]
    assert len(read_shard_index(out).files("train", "src")) == -(-manifest.lines["train"] // 700)
    _assert_shards_hold_the_lines(out)


def test_sentencepiece_trains_on_a_seeded_sample_when_train_is_larger(tmp_path):
    """6,632 train lines, a sample of 3,000: the same vocabulary with one worker or two, and
    another than all the lines give."""
    first = prepare(_config("tatoeba-bi-plus", tmp_path / "a", input_sentence_size=3000))
    second = prepare(
        _config("tatoeba-bi-plus", tmp_path / "b", input_sentence_size=3000), workers=2
    )
    vocab = {_digest(tmp_path / d / "spm.vocab") for d in "ab"}
    assert len(vocab) == 1 and vocab != {EARLIER["tatoeba-bi-plus"]["spm.vocab"]}
    same = [name for name in first.outputs if not name.endswith(".model")]
    assert {n: first.outputs[n] for n in same} == {n: second.outputs[n] for n in same}
    _assert_shards_hold_the_lines(tmp_path / "b")

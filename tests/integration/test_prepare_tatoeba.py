"""Prepare a slice of the real Tatoeba file with the shipped recipe; check the report adds up."""

from pathlib import Path

from fanyi.config import load_yaml, override
from fanyi.data import DataConfig, TokenBatchSampler, collate, load_split, load_vocabs
from fanyi.data.build import prepare

REPO = Path(__file__).resolve().parents[2]
LINES = 2000


def test_prepare_a_slice_of_tatoeba(tmp_path, data_dir):
    recipe = load_yaml(DataConfig, REPO / "configs" / "data" / "tatoeba-zh-en.yaml")
    overrides = {"limit": LINES, "dev_size": 100, "test_size": 100, "vocab_size": 2000}
    config = override(recipe, {**overrides, "out_dir": str(tmp_path / "out")})
    manifest = prepare(config)

    report = manifest.report["corpus"]
    assert report["input_lines"] == LINES
    assert report["kept"] + sum(report["dropped"].values()) == LINES
    assert sum(manifest.pairs.values()) == report["kept"]
    assert report["changed"].get("t2s.zh", 0) > 0  # the slice mixes traditional script in

    out = tmp_path / "out"
    read = lambda name: (out / name).read_text(encoding="utf-8").splitlines()  # noqa: E731
    train_sides = set(read("train.src")) | set(read("train.tgt"))
    for split in ("dev", "test"):
        assert not train_sides & (set(read(f"{split}.src")) | set(read(f"{split}.tgt")))

    src_vocab, tgt_vocab = load_vocabs(out)
    for line in read("test.src"):
        assert src_vocab.decode(src_vocab.encode(line)) == line
    dataset = load_split(out, "train", (src_vocab, tgt_vocab))
    sampler = TokenBatchSampler(*dataset.sizes(), max_tokens=512, seed=1)
    assert sum(len(collate([dataset[i] for i in batch]).src) for batch in sampler) == len(dataset)

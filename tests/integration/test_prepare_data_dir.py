"""prepare(): the data directory, its manifest, the no-op re-run, and the CLI."""

import json

import pytest
import torch

from fanyi.cli import main
from fanyi.config import save_yaml
from fanyi.data import DataConfig, TokenBatchSampler
from fanyi.data.batching import ParallelDataset, collate, load_split, load_vocabs
from fanyi.data.build import MalformedLineError, prepare
from fanyi.data.manifest import SIDES
from fanyi.data.shards import SHARD_INDEX, read_shard_index

EN = [
    "Hi.",
    "Run.",
    "Tom is here.",
    "We try.",
    "Who are you?",
    "I like cats.",
    "Go away!",
    "It is late.",
    "Thank you.",
    "See you tomorrow.",
]
ZH = [
    "嗨。",
    "跑。",
    "湯姆在這裡。",
    "我們來試試。",
    "你是誰？",
    "我喜歡貓。",
    "走開！",
    "很晚了。",
    "謝謝你。",
    "明天見。",
]


def _tsv(tmp_path, n=120, extra=b""):
    """n pairs built from the lists above (numbered so most are distinct), plus ``extra``."""
    lines = [f"{EN[i % 10]} {i}\t{ZH[i % 10]}{i}\tCC-BY #{i}\n" for i in range(n)]
    path = tmp_path / "corpus.tsv"
    path.write_bytes("".join(lines).encode() + extra)
    return path


def _config(tmp_path, path, **kwargs) -> DataConfig:
    values = {
        "train": str(path),
        "out_dir": str(tmp_path / "out"),
        "dev_size": 10,
        "test_size": 10,
        "vocab_size": 400,
        **kwargs,
    }
    return DataConfig(**values)


def test_prepare_writes_splits_vocab_and_a_consistent_manifest(tmp_path):
    extra = "Hi. 0\t嗨。0\tdup\n\tempty\tx\nno tabs\n".encode() + b"bad \xff\tx\ty\n"
    manifest = prepare(_config(tmp_path, _tsv(tmp_path, extra=extra)))
    report = manifest.report["corpus"]
    assert report["input_lines"] == 124
    assert report["dropped"] == {
        "duplicate": 1,
        "empty": 1,
        "invalid_utf8": 1,
        "malformed_columns": 1,
    }
    assert report["kept"] == 120 == sum(manifest.pairs.values())
    assert manifest.pairs["dev"] == manifest.pairs["test"] == 10
    out = tmp_path / "out"
    train = (out / "train.src").read_text(encoding="utf-8").splitlines()
    assert len(train) == 100 and "湯" not in "".join(train)  # Chinese side simplified
    assert manifest.vocab.joint and manifest.vocab.pad_id == 0
    assert set(manifest.outputs) >= {"train.src", "dev.tgt", "spm.model"}


def test_rerun_is_a_no_op_and_a_changed_config_redoes_the_work(tmp_path):
    config = _config(tmp_path, _tsv(tmp_path))
    first = prepare(config)
    stamp = (tmp_path / "out" / "spm.model").stat().st_mtime_ns
    assert prepare(config) == first
    assert (tmp_path / "out" / "spm.model").stat().st_mtime_ns == stamp
    second = prepare(_config(tmp_path, _tsv(tmp_path), seed=99))
    assert second.config.seed == 99 and second.outputs != first.outputs


def test_strict_mode_fails_on_the_first_malformed_line(tmp_path):
    path = _tsv(tmp_path, extra=b"no tabs\n")
    with pytest.raises(MalformedLineError, match=f"{path}:121"):
        prepare(_config(tmp_path, path), strict=True)


def test_bidirectional_with_tags_and_loading_as_tensors(tmp_path):
    config = _config(tmp_path, _tsv(tmp_path), bidirectional=True, lang_tags=True)
    manifest = prepare(config)
    assert manifest.lines["train"] == 200 and manifest.vocab.tags == ["<2en>", "<2zh>"]
    src = (tmp_path / "out" / "train.src").read_text(encoding="utf-8").splitlines()
    assert src[0].startswith("<2en> ") and src[-1].startswith("<2zh> ")
    vocabs = load_vocabs(tmp_path / "out")
    dataset = load_split(tmp_path / "out", "train", vocabs)
    assert dataset[0][0][0] == vocabs[0].tag_id("en")
    sampler = TokenBatchSampler(*dataset.sizes(), max_tokens=64)
    batch = collate([dataset[i] for i in next(iter(sampler))])
    assert batch.src.dtype == torch.long and batch.src.numel() <= 64
    assert (
        vocabs[1].decode(batch.tgt_out[0].tolist())
        == (tmp_path / "out" / "train.tgt")
        .read_text(encoding="utf-8")
        .splitlines()[next(iter(sampler))[0]]
    )


def test_aligned_files_with_given_splits_drop_train_overlap(tmp_path):
    for split, n in (("train", 50), ("dev", 5), ("test", 5)):
        offset = {"train": 0, "dev": 100, "test": 200}[split]
        de = [f"Satz {i + offset}." for i in range(n)]
        en = [f"Sentence {i + offset}." for i in range(n)]
        if split == "train":
            de[0], en[1] = "Satz 100.", "Sentence 201."  # share one side with dev / test
        (tmp_path / f"{split}.de").write_text("\n".join(de) + "\n")
        (tmp_path / f"{split}.en").write_text("\n".join(en) + "\n")
    config = DataConfig(
        format="aligned",
        train=str(tmp_path / "train"),
        dev=str(tmp_path / "dev"),
        test=str(tmp_path / "test"),
        src_lang="de",
        tgt_lang="en",
        vocab_size=300,
        joint_vocab=False,
        out_dir=str(tmp_path / "out"),
    )
    manifest = prepare(config)
    assert manifest.report["train"]["dropped"] == {"overlap": 2}
    assert manifest.pairs == {"train": 48, "dev": 5, "test": 5}
    assert manifest.vocab.src_model == "spm.src.model"


def test_fanyi_data_environment_variable_locates_corpora(tmp_path, monkeypatch):
    _tsv(tmp_path)
    monkeypatch.setenv("FANYI_DATA", str(tmp_path))
    manifest = prepare(_config(tmp_path, "${FANYI_DATA}/corpus.tsv"))
    assert manifest.input_paths["train"] == str(tmp_path / "corpus.tsv")


def test_cli_reads_yaml_and_flags_override_it(tmp_path, capsys):
    config = _config(tmp_path, _tsv(tmp_path))
    save_yaml(config, tmp_path / "data.yaml")
    status = main(["prepare", "--config", str(tmp_path / "data.yaml"), "--test-size", "20"])
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["pairs"] == {"train": 90, "dev": 10, "test": 20}


def test_cli_strict_flag_gives_one_clear_error_line(tmp_path, capsys):
    config = _config(tmp_path, _tsv(tmp_path, extra=b"no tabs\n"))
    save_yaml(config, tmp_path / "data.yaml")
    assert main(["prepare", "--config", str(tmp_path / "data.yaml"), "--strict"]) == 2
    assert ":121: 1 columns, expected 3" in capsys.readouterr().err


def test_memory_mapped_split_batches_as_the_split_encoded_in_memory(tmp_path):
    """Training reads the shards; they give the ids, sizes and batches that encoding the text
    files when training starts gave, shard boundaries or not."""
    config = _config(tmp_path, _tsv(tmp_path), bidirectional=True, lang_tags=True, shard_lines=7)
    prepare(config, workers=2)
    vocabs = load_vocabs(tmp_path / "out")
    mapped = load_split(tmp_path / "out", "train", vocabs)
    lines = [
        (tmp_path / "out" / f"train.{side}").read_text(encoding="utf-8").splitlines()
        for side in ("src", "tgt")
    ]
    encoded = ParallelDataset(
        *(v.encode_batch(side) for v, side in zip(vocabs, lines, strict=True))
    )
    assert [mapped[i] for i in range(len(mapped))] == [encoded[i] for i in range(len(encoded))]
    assert all((a == b).all() for a, b in zip(mapped.sizes(), encoded.sizes(), strict=True))
    for world_size in (1, 2):
        samplers = [
            TokenBatchSampler(*data.sizes(), max_tokens=60, seed=4, world_size=world_size)
            for data in (mapped, encoded)
        ]
        for sampler in samplers:
            sampler.set_epoch(3)
        assert samplers[0].batches() == samplers[1].batches()
        assert [mapped.examples(b, 3) for b in samplers[0]] == [
            encoded.examples(b, 3) for b in samplers[1]
        ]


def test_a_directory_prepared_before_token_shards_is_refused_then_prepared_again(tmp_path):
    config = _config(tmp_path, _tsv(tmp_path))
    manifest = prepare(config)
    out = tmp_path / "out"
    index = read_shard_index(out)
    for name in index.all_files(SIDES):  # as fanyi wrote data directories before shards
        (out / name).unlink()
    manifest.outputs = {
        k: v
        for k, v in manifest.outputs.items()
        if k.endswith((".src", ".tgt", ".model", ".vocab"))
    }
    manifest.save(out)
    with pytest.raises(ValueError, match=r"older fanyi; re-run `fanyi prepare`"):
        load_split(out, "train")
    again = prepare(config)
    assert again.outputs == {**manifest.outputs, **again.outputs} and SHARD_INDEX in again.outputs
    assert len(load_split(out, "train")) == again.lines["train"]

"""CTranslate2 models written by CTranslate2's own converter (``ct2-transformers-converter``)
translate with ``--engine ctranslate2`` as the MarianMT model they came from: greedy, the
translations of ``generate``."""

from __future__ import annotations

import shutil

import pytest
from ctranslate2.converters import TransformersConverter
from transformers import MarianTokenizer

from fanyi.cli import main
from fanyi.translate.translator import Translator
from hf_reference import generate
from tiny_marian import build, corpus

FILES = ["source.spm", "target.spm", "vocab.json", "tokenizer_config.json"]


@pytest.fixture(scope="module")
def native(tmp_path_factory):
    """(transformers model, its tokenizer, the CTranslate2 directory its converter wrote)."""
    root = tmp_path_factory.mktemp("native")
    reference = build(root / "opus-mt-xx-en", "swish")
    out = root / "ct2" / "opus-mt-xx-en"  # the languages: from the name
    TransformersConverter(str(root / "opus-mt-xx-en"), copy_files=FILES).convert(str(out))
    return reference, MarianTokenizer.from_pretrained(root / "opus-mt-xx-en"), out


@pytest.mark.slow  # 100 sentences through both (about 7 s)
def test_greedy_translations_are_generates(native):
    reference, tokenizer, directory = native
    texts = corpus(60, seed=1)[0]
    translator = Translator.load(directory, engine="ctranslate2", beam=1)
    sources = [tokenizer(text).input_ids for text in texts]
    assert sources == [translator.text.ids(text, "en") for text in texts]
    theirs = tokenizer.batch_decode([rows[0] for rows in generate(reference, sources, 1)])
    assert translator(texts) == [t.strip() for t in theirs]


def test_the_cli_translates_with_it(native, tmp_path, capsys):
    _, _, directory = native
    src = tmp_path / "in.txt"
    src.write_text("bakomu rizo\n", encoding="utf-8")
    args = ["translate", "--engine", "ctranslate2", "-m", str(directory), "--threads", "1"]
    assert main([*args, "-i", str(src), "--beam", "1"]) == 0
    expected = Translator.load(directory, engine="ctranslate2", beam=1)(["bakomu rizo"])
    assert capsys.readouterr().out.splitlines() == expected


def test_without_the_engine_flag_the_error_says_which(native, capsys):
    assert main(["translate", "-m", str(native[2]), "-i", "/dev/null"]) == 2
    error = capsys.readouterr().err
    assert "is a CTranslate2 model" in error and "--engine ctranslate2" in error


def test_without_its_vocabulary_files_the_error_says_how_to_convert(native, tmp_path, capsys):
    bare = shutil.copytree(native[2], tmp_path / "opus-mt-xx-en")
    (bare / "vocab.json").unlink()
    assert main(["translate", "--engine", "ctranslate2", "-m", str(bare), "-i", "/dev/null"]) == 2
    error = capsys.readouterr().err
    assert "vocab.json" in error and "--copy_files source.spm target.spm vocab.json" in error


def test_a_truncated_model_bin_is_one_line(native, tmp_path, capsys):
    broken = shutil.copytree(native[2], tmp_path / "opus-mt-xx-en")
    data = (broken / "model.bin").read_bytes()
    (broken / "model.bin").write_bytes(data[: len(data) // 2])
    assert main(["translate", "--engine", "ctranslate2", "-m", str(broken), "-i", "/dev/null"]) == 2
    assert "model.bin: truncated, or not a CTranslate2 model" in capsys.readouterr().err


def test_a_dtype_without_kernels_here_is_one_line(native, monkeypatch, capsys):
    import ctranslate2

    monkeypatch.setattr(ctranslate2, "get_supported_compute_types", lambda device: {"float32"})
    args = ["translate", "--engine", "ctranslate2", "-m", str(native[2]), "--dtype", "bf16"]
    assert main([*args, "-i", "/dev/null"]) == 2
    assert (
        "--dtype bf16: CTranslate2 has no bfloat16 kernels on this cpu" in capsys.readouterr().err
    )

"""``fanyi data opus``: the OPUS API asked for a corpus's Moses release, the zip fetched and
written as TSV, against a local HTTP server standing in for opus.nlpl.eu."""

import json
import zipfile

import pytest

from fanyi.cli import main


def serve_opus(root, base, corpora):
    """An API answer at ``/opusapi/`` listing ``corpora``, and a Moses zip of two pairs."""
    (root / "opusapi").mkdir()
    (root / "opusapi" / "index.html").write_text(json.dumps({"corpora": corpora}))
    with zipfile.ZipFile(root / "en-zh.txt.zip", "w") as archive:
        archive.writestr("Toy.en-zh.en", "Hello world.\nGood night.\n")
        archive.writestr("Toy.en-zh.zh", "你好，世界。\n晚安。\n")
        archive.writestr("README", "a toy corpus\n")
    return f"{base}/opusapi/"


def test_a_corpus_is_listed_fetched_and_written(server, tmp_path, capsys):
    root, base = server
    moses = {"corpus": "Toy", "version": "v1", "url": f"{base}/en-zh.txt.zip"}
    api = serve_opus(root, base, [{"url": f"{base}/en-zh.tmx.gz"}, moses])
    out = tmp_path / "out"
    argv = ["data", "opus", "Toy", "-o", str(out), "--api", api, "--cache-dir", str(tmp_path)]
    assert main(argv) == 0
    assert (out / "train.tsv").read_text(encoding="utf-8").splitlines() == [
        "Hello world.\t你好，世界。\tOPUS Toy v1:1",
        "Good night.\t晚安。\tOPUS Toy v1:2",
    ]
    assert json.loads((out / "report.json").read_text())["pairs"] == {"train": 2}
    assert "train.tsv\t2 pairs" in capsys.readouterr().out
    assert (tmp_path / "opus" / "Toy-v1.en-zh.zip").is_file()  # cached for the next run


@pytest.mark.parametrize("answer", ["[]", "not json", '{"corpora": [{"url": "x.tmx.gz"}]}'])
def test_an_unusable_answer_is_one_clear_error(server, tmp_path, capsys, answer):
    root, base = server
    (root / "opusapi").mkdir()
    (root / "opusapi" / "index.html").write_text(answer)
    argv = ["data", "opus", "Toy", "-o", str(tmp_path / "out"), "--api", f"{base}/opusapi/"]
    assert main(argv) == 2
    assert "OPUS" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()

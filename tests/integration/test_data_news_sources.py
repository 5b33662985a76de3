"""``fanyi data news-commentary|un-dev|wmt23|leipzig-news`` on small folders laid out as their
repositories are: pairs kept once, split without leakage or kept whole, provenance and licence
written; Leipzig's Chinese news back-translated into pairs that teach Chinese only."""

from __future__ import annotations

import json
from pathlib import Path

from fanyi.cli import main


def _folder(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_news_commentary_pairs_are_kept_once_and_split_without_leakage(tmp_path):
    rows = [
        {"en": f"Commentary sentence {n}.", "zh": f"评论第{n}句。", "index": n} for n in range(80)
    ]
    rows += [rows[3], {"en": "No translation.", "zh": " ", "index": 81}]
    jsonl = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    jsonl += '{"en": "A line cut off'  # a broken line costs only itself
    local = _folder(tmp_path / "AP004", {"data/train_10k.jsonl": jsonl})
    out = tmp_path / "nc"
    assert main(["data", "news-commentary", str(local), "-o", str(out)]) == 0
    split = {name: _rows(out / f"{name}.tsv") for name in ("train", "dev", "test")}
    assert [len(split[name]) for name in ("train", "dev", "test")] == [72, 4, 4]
    held = {text for name in ("dev", "test") for row in split[name] for text in row[:2]}
    assert not held & {text for row in split["train"] for text in row[:2]}
    assert ["Commentary sentence 0.", "评论第0句。", "News Commentary data/train_10k.jsonl:1"] in [
        row for rows in split.values() for row in rows
    ]
    report = json.loads((out / "report.json").read_text())
    assert report["unique_pairs"] == 80 and report["malformed_lines"] == 1
    assert "research use" in (out / "PROVENANCE.md").read_text(encoding="utf-8")


def test_un_dev_is_kept_whole_for_training_and_refuses_unaligned_files(tmp_path, capsys):
    files = {
        "data/UNv1.0.devset.en": "Sixty-ninth session\nAgenda item 1\nSixty-ninth session\n",
        "data/UNv1.0.devset.zh": "第六十九届会议\n议程项目1\n第六十九届会议\n",
    }
    out = tmp_path / "un"
    assert main(["data", "un-dev", str(_folder(tmp_path / "un-repo", files)), "-o", str(out)]) == 0
    assert [row[:2] for row in _rows(out / "train.tsv")] == [
        ["Sixty-ninth session", "第六十九届会议"],
        ["Agenda item 1", "议程项目1"],
    ]
    assert "UN disclaimer" in (out / "PROVENANCE.md").read_text(encoding="utf-8")
    files["data/UNv1.0.devset.zh"] = "第六十九届会议\n"
    bad = _folder(tmp_path / "bad", files)
    assert main(["data", "un-dev", str(bad), "-o", str(tmp_path / "bad-out")]) != 0
    assert "has 3 lines" in capsys.readouterr().err


def test_wmt23_writes_one_test_file_per_direction(tmp_path):
    files = {
        "txt/sources/generaltest2023.zh-en.src.zh": "今天下雨。\n",
        "txt/references/generaltest2023.zh-en.ref.refA.en": "It rains today.\n",
        "txt/sources/generaltest2023.en-zh.src.en": "Hello there.\nGood night.\n",
        "txt/references/generaltest2023.en-zh.ref.refA.zh": "你好。\n晚安。\n",
    }
    out = tmp_path / "wmt23"
    assert main(["data", "wmt23", str(_folder(tmp_path / "w", files)), "-o", str(out)]) == 0
    assert [r[:2] for r in _rows(out / "generaltest2023.zh-en.tsv")] == [
        ["It rains today.", "今天下雨。"]
    ]
    assert len(_rows(out / "generaltest2023.en-zh.tsv")) == 2
    assert not (out / "train.tsv").exists()
    assert json.loads((out / "report.json").read_text())["test_only"] is True


def test_leipzig_news_back_translated_teaches_chinese_only(tmp_path):
    text = "1\t今天股市上涨。\n2\t今天股市上涨。\n3\t 新冠疫苗  开始接种。\n"
    local = _folder(tmp_path / "lz", {"zho_news_2020_10K-sentences.txt": text})
    mono = tmp_path / "mono"
    assert main(["data", "leipzig-news", str(local), "-o", str(mono)]) == 0
    assert (mono / "mono.zh").read_text(encoding="utf-8") == "今天股市上涨。\n新冠疫苗 开始接种。\n"
    (mono / "mono.en").write_text("Stocks rose today.\nVaccination began.\n", encoding="utf-8")
    out = tmp_path / "bt"
    assert main(["data", "back-translated", str(mono), "-o", str(out), "--model", "m1"]) == 0
    assert _rows(out / "train.tsv")[0] == [
        "Stocks rose today.",
        "今天股市上涨。",
        "zho_news_2020_10K-sentences.txt:1 back-translated by m1",
    ]
    assert json.loads((out / "report.json").read_text())["one_way"] == "zh"
    assert "into Chinese only" in (out / "PROVENANCE.md").read_text(encoding="utf-8")

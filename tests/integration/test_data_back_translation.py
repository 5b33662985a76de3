"""``fanyi data news-mono`` and ``fanyi data back-translated``: English news of the other WMT
pairs (up to 2018, never the zh–en sets) for back-translation, then paired with its translation
into a TSV that a data mix takes as a one-way corpus."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from fanyi.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

TESTSETS = {
    "testsets/deu-eng/newstest2014.eng": "Stocks fell.\nThe  minister  resigned.\n\nStocks fell.\n",
    "testsets/eng-deu/newstest2014.eng": "The minister resigned.\nRain is expected.\n",
    "testsets/ces-eng/newssyscomb2009.eng": "Prices rose sharply.\n",
    "testsets/eng-deu/newstest2019.eng": "A 2019 source that en-zh shares.\n",
    "testsets/eng-zho/newstest2017.eng": "The zh-en dev set.\n",
    "testsets/deu-eng/newstest2014.deu": "Die Aktien fielen.\n",
}


def _git(where: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(where), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("kind", ["git", "folder"])
def test_news_mono_reads_other_pairs_up_to_2018_once_each(tmp_path, capsys, kind):
    local = tmp_path / "repo"
    for name, text in TESTSETS.items():
        (local / name).parent.mkdir(parents=True, exist_ok=True)
        (local / name).write_text(text, encoding="utf-8")
    if kind == "git":  # a bare clone, as fanyi makes one: no work tree to read by mistake
        _git(local, "init", "-q", "-b", "master")
        _git(local, "add", ".")
        _git(local, "commit", "-qm", "testsets")
        _git(tmp_path, "clone", "-q", "--bare", str(local), "bare.git")
        local = tmp_path / "bare.git"
    assert main(["data", "news-mono", str(local), "-o", str(tmp_path / "mono")]) == 0
    mono = (tmp_path / "mono" / "mono.en").read_text(encoding="utf-8").splitlines()
    assert mono == [
        "Prices rose sharply.",
        "Stocks fell.",
        "The minister resigned.",
        "Rain is expected.",
    ]  # natural file order, whitespace squeezed, first seen
    origins = (tmp_path / "mono" / "mono.origin").read_text(encoding="utf-8").splitlines()
    assert origins[1] == "testsets/deu-eng/newstest2014.eng:1"
    report = json.loads((tmp_path / "mono" / "report.json").read_text())
    assert report["files"] == 3 and report["lines"] == 6 and report["duplicates"] == 2
    assert "research use" in (tmp_path / "mono" / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "4 sentences" in capsys.readouterr().out


def _mono(tmp_path: Path, english: dict[str, str], translations: dict[str, str]) -> Path:
    """A folder as news-mono writes it (sentence: origin), with translation files beside."""
    mono = tmp_path / "mono"
    mono.mkdir()
    (mono / "mono.en").write_text("".join(f"{text}\n" for text in english))
    (mono / "mono.origin").write_text("".join(f"{origin}\n" for origin in english.values()))
    for name, text in translations.items():
        (mono / name).write_text(text, encoding="utf-8")
    return mono


def test_back_translated_pairs_sentences_with_their_translations(tmp_path, capsys):
    english = {"Stocks fell.": "a.eng:1", "Rain is expected.": "a.eng:2", "Prices rose.": "b.eng:1"}
    mono = _mono(tmp_path, english, {"mono.zh": "股票下跌了。\n\n价格上涨了。\n"})
    out = tmp_path / "bt"
    assert main(["data", "back-translated", str(mono), "-o", str(out), "--model", "m1"]) == 0
    rows = [line.split("\t") for line in (out / "train.tsv").read_text("utf-8").splitlines()]
    assert rows == [
        ["Stocks fell.", "股票下跌了。", "a.eng:1 back-translated by m1"],
        ["Prices rose.", "价格上涨了。", "b.eng:1 back-translated by m1"],
    ]
    assert json.loads((out / "report.json").read_text())["empty_translation"] == 1
    (mono / "mono.zh").write_text("股票下跌了。\n", encoding="utf-8")  # a translation run cut off
    again = ["data", "back-translated", str(mono), "-o", str(out), "--model", "m1", "--overwrite"]
    assert main(again) != 0
    assert "3 sentences, 3 origins, 1 translations" in capsys.readouterr().err


def test_forward_translated_pairs_teach_chinese_from_real_english(tmp_path):
    english = {"Stocks fell.": "a.eng:1", "Prices rose.": "b.eng:1"}
    mono = _mono(tmp_path, english, {"zh-b4": "股票下跌了。\n价格上涨了。\n"})
    out = tmp_path / "ft"
    argv = ["data", "forward-translated", str(mono), "-o", str(out), "--model", "m1"]
    assert main([*argv, "--translations", str(mono / "zh-b4")]) == 0
    rows = [line.split("\t") for line in (out / "train.tsv").read_text("utf-8").splitlines()]
    assert rows[1] == ["Prices rose.", "价格上涨了。", "b.eng:1 forward-translated by m1"]
    assert json.loads((out / "report.json").read_text())["source"] == "forward-translated"
    assert "into Chinese only" in (out / "PROVENANCE.md").read_text(encoding="utf-8")

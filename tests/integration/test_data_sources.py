"""``fanyi data SOURCE``: real-text corpora read from git repositories (every matching branch,
bare or not), a plain folder, or a clone made first, written as TSV files with a report and
their provenance, deduplicated across branches."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import fanyi.data.build.registry as sources
from fanyi.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


def commit_branch(repo: Path, branch: str, files: dict[str, str]) -> None:
    """Branch ``branch`` holding exactly ``files`` (path → text), from an empty tree."""
    git(repo, "checkout", "-q", "--orphan", branch)
    git(repo, "rm", "-rfq", "--ignore-unmatch", ".")
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", branch)


def repository(root: Path, branches: dict[str, dict[str, str]]) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    for branch, files in branches.items():
        commit_branch(root, branch, files)
    return root


def docs_branches() -> dict[str, dict[str, str]]:
    old = (FIXTURES / "library.po").read_text(encoding="utf-8")
    new = (FIXTURES / "library-new.po").read_text(encoding="utf-8")
    return {
        "master": {"README.md": "translations live on the release branches\n"},
        "3.12": {"library/example.po": old},
        "3.13": {"library/example.po": new, "about.po": new},  # same blob twice: read once
    }


def lines(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_python_docs_from_every_release_branch(tmp_path, capsys):
    repo = repository(tmp_path / "python-docs-zh-cn", docs_branches())
    out = tmp_path / "out"
    assert main(["data", "python-docs", str(repo), "-o", str(out)]) == 0
    train = lines(out / "train.tsv")
    assert len(train) == 8  # 7 pairs of 3.12, the changed entry of 3.13 once; too few to hold out
    assert lines(out / "dev.tsv") == lines(out / "test.tsv") == []
    assert ["Reading files", "读取文件", "python-docs-zh-cn 3.12:library/example.po"] in train
    assert train[-1] == [
        "Paths may be given as pathlib.Path objects.",
        "路径可以以 pathlib.Path 对象给出。",
        "python-docs-zh-cn 3.13:about.po",  # the first of the two files with this text
    ]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["pairs"] == {"train": 8, "dev": 0, "test": 0}
    assert report["catalogues"]["dropped"]["fuzzy"] == 1
    provenance = (out / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "`3.12` at" in provenance and "`3.13` at" in provenance and "master" not in provenance
    assert "CC0" in provenance
    assert "train.tsv\t8 pairs" in capsys.readouterr().out


def test_a_bare_clone_is_read_and_a_missing_one_is_cloned(tmp_path, monkeypatch):
    repo = repository(tmp_path / "upstream", docs_branches())
    bare = tmp_path / "upstream.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    assert main(["data", "python-docs", str(bare), "-o", str(tmp_path / "a")]) == 0
    source = dataclasses.replace(
        sources.SOURCES["python-docs"], url=f"file://{repo.parent}/upstream"
    )
    monkeypatch.setitem(sources.SOURCES, "python-docs", source)
    cache = tmp_path / "cache"
    argv = ["data", "python-docs", "-o", str(tmp_path / "b"), "--cache-dir", str(cache)]
    assert main(argv) == 0
    assert (cache / "python-docs.git" / "HEAD").is_file()
    assert (tmp_path / "a" / "train.tsv").read_text() == (tmp_path / "b" / "train.tsv").read_text()
    assert main([*argv, "--overwrite"]) == 0  # a second run fetches into the clone it made


def test_3am_keeps_its_own_split_from_a_plain_folder(tmp_path):
    folder = tmp_path / "3AM" / "data"
    folder.mkdir(parents=True)
    for split, n in (("train", 5), ("val", 2), ("test", 3)):
        (folder / f"{split}.en").write_text("".join(f"A dog runs {i}.\n" for i in range(n)))
        (folder / f"{split}.zh").write_text("".join(f"一只狗在跑{i}。\n" for i in range(n)))
    assert main(["data", "3am", str(tmp_path / "3AM"), "-o", str(tmp_path / "out")]) == 0
    assert [len(lines(tmp_path / "out" / f"{s}.tsv")) for s in ("train", "dev", "test")] == [
        5,
        2,
        3,
    ]
    assert lines(tmp_path / "out" / "dev.tsv")[1] == [
        "A dog runs 1.",
        "一只狗在跑1。",
        "3AM:data/val.en:2",
    ]
    (folder / "test.zh").write_text("一只狗在跑。\n")
    assert main(["data", "3am", str(tmp_path / "3AM"), "-o", str(tmp_path / "bad")]) == 2


def test_wmt_news_roles_by_year_and_direction(tmp_path):
    def pair(direction: str, year: int, n: int) -> dict[str, str]:
        prefix = f"testsets/{direction}/newstest{year}"
        return {
            f"{prefix}.eng": "".join(f"News {year} {direction} {i}.\n" for i in range(n)),
            f"{prefix}.zho": "".join(f"新闻{year}{direction}{i}。\n" for i in range(n)),
        }

    files = {**pair("zho-eng", 2017, 3), **pair("eng-zho", 2017, 3), **pair("zho-eng", 2018, 4)}
    files |= pair("zho-eng", 2019, 2) | pair("eng-zho", 2019, 5)
    repo = repository(tmp_path / "testsets", {"master": files})
    out = tmp_path / "out"
    assert main(["data", "wmt-news", str(repo), "-o", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["pairs"] == {
        "train": 4,
        "dev": 6,
        "newstest2019.zh-en": 2,
        "newstest2019.en-zh": 5,
    }
    assert lines(out / "newstest2019.en-zh.tsv")[0][:2] == [
        "News 2019 eng-zho 0.",
        "新闻2019eng-zho0。",
    ]


def numbered(text: str, n: int) -> str:
    return "".join(f"{text} {i}\n" for i in range(n))


def test_wider_tests_each_set_its_own_test_file(tmp_path):
    flores = "datasets/facebook/flores/flores200_dataset/devtest"
    wmt22 = "datasets/statmt/wmt22-news-systems/txt"
    files = {  # FLORES and WMT22 in datasets/, TICO-19 in testsets/ (eng-zho only)
        f"{flores}/eng_Latn.devtest": numbered("A wiki line", 3),
        f"{flores}/zho_Hans.devtest": numbered("维基一行", 3),
        f"{flores}/zho_Hant.devtest": numbered("維基一行", 3),
        "testsets/eng-zho/tico19-test.eng": numbered("Wash your hands", 4),
        "testsets/eng-zho/tico19-test.zho": numbered("洗手", 4),
        f"{wmt22}/sources/generaltest2022.zh-en.src.zh": numbered("订单", 2),
        f"{wmt22}/references/generaltest2022.zh-en.ref.A.en": numbered("The order", 2),
        f"{wmt22}/references/generaltest2022.zh-en.ref.B.en": numbered("An order", 2),
    }
    repo = repository(tmp_path / "testsets", {"master": files})
    (repo / "testsets" / "zho-eng").mkdir()
    (repo / "testsets" / "zho-eng" / "tico19-test.zho").symlink_to("../eng-zho/tico19-test.zho")
    git(repo, "add", ".")  # committed as upstream keeps it: a link, not read
    git(repo, "commit", "-qm", "zho-eng links to eng-zho")
    out = tmp_path / "out"
    assert main(["data", "wider-tests", str(repo), "-o", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["pairs"] == {
        "flores200-devtest": 3,
        "tico19-test": 4,
        "generaltest2022.zh-en": 2,
    }
    assert report["missing_sets"] == ["generaltest2022.en-zh"] and report["test_only"]
    assert sorted(p.name for p in out.glob("*.tsv")) == [
        "flores200-devtest.tsv",
        "generaltest2022.zh-en.tsv",
        "tico19-test.tsv",
    ]  # no train, no dev
    assert lines(out / "generaltest2022.zh-en.tsv")[1][:2] == ["The order 1", "订单 1"]
    assert lines(out / "flores200-devtest.tsv")[2] == [
        "A wiki line 2",
        "维基一行 2",
        f"FLORES-200 devtest:{flores}/eng_Latn.devtest:3",
    ]
    provenance = (out / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "CC BY-SA 4.0" in provenance and "CC0" in provenance and "WMT22" in provenance


def test_wider_tests_refuse_misaligned_or_absent_sets(tmp_path, capsys):
    files = {
        "testsets/eng-zho/tico19-test.eng": numbered("Wash your hands", 4),
        "testsets/eng-zho/tico19-test.zho": numbered("洗手", 3),
    }
    repo = repository(tmp_path / "testsets", {"master": files})
    assert main(["data", "wider-tests", str(repo), "-o", str(tmp_path / "a")]) == 2
    assert (
        "tico19-test.eng has 4 lines, testsets/eng-zho/tico19-test.zho 3" in capsys.readouterr().err
    )
    empty = repository(tmp_path / "empty", {"master": {"README.md": "nothing\n"}})
    assert main(["data", "wider-tests", str(empty), "-o", str(tmp_path / "b")]) == 2
    assert "none of flores200-devtest" in capsys.readouterr().err

"""Write the corpus slices the tests read (tests/fixtures/data), from the full corpora.

    .venv/bin/python scripts/make_test_slices.py [--corpora ../shared/data]

- tatoeba-cmn-eng/cmn.txt: the first lines of Tatoeba cmn-eng, unchanged (third column: the
  per-sentence attribution the licence asks to keep);
- tatoeba-cmn-eng/bundled-test.txt: the original lines of the bundled model's held-out test pairs
  (its data config's leak-free split), in the split's order;
- multi30k/{train,val,test_2016_flickr}.{de,en}: the first lines of each Multi30k file;
- python-docs/test.tsv: the first lines of the python-docs source's held-out test split (``fanyi
  data python-docs`` output in --sources), which the general model never saw.

A test that reads the first N ≤ TATOEBA_LINES lines sees the same pairs as from the full file.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import yaml

from fanyi.data import DataConfig
from fanyi.data.build.prepare import clean_and_split
from fanyi.ensemble_dir import first_member
from fanyi.text.lang import Normalizer

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "data"
BUNDLED = REPO / "src" / "fanyi" / "bundled" / "zh-en"
TATOEBA_LINES = 3000
MULTI30K_LINES = {"train": 1000, "val": 100, "test_2016_flickr": 100}
PYTHON_DOCS_LINES = 200


def head(source: Path, target: Path, lines: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with source.open(encoding="utf-8") as f:
        target.write_text("".join(next(f) for _ in range(lines)), encoding="utf-8")


def bundled_test_lines(corpora: Path) -> list[str]:
    """The raw Tatoeba lines of the bundled model's test pairs, in the split's order."""
    sections = yaml.safe_load((first_member(BUNDLED) / "config.yaml").read_text(encoding="utf-8"))
    config = DataConfig(**sections["data"])
    os.environ["FANYI_DATA"] = str(corpora)
    test = clean_and_split(config)[0]["test"]  # (zh, en) pairs, cleaned, as training split them
    normalizers = [Normalizer(lang, config.nfkc, config.t2s) for lang in config.langs]
    by_pair: dict[tuple[str, ...], str] = {}
    for line in (corpora / "tatoeba-cmn-eng" / "cmn.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        sides = [fields[config.columns[lang]] for lang in config.langs]
        by_pair.setdefault(tuple(n(s) for n, s in zip(normalizers, sides, strict=True)), line)
    return [by_pair[pair] for pair in test]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--sources", type=Path, default=REPO / "data" / "sources")
    args = parser.parse_args()
    corpora = args.corpora
    head(
        corpora / "tatoeba-cmn-eng" / "cmn.txt",
        FIXTURES / "tatoeba-cmn-eng" / "cmn.txt",
        TATOEBA_LINES,
    )
    lines = bundled_test_lines(corpora)
    (FIXTURES / "tatoeba-cmn-eng" / "bundled-test.txt").write_text(
        "".join(f"{line}\n" for line in lines), encoding="utf-8"
    )
    for split, count in MULTI30K_LINES.items():
        for lang in ("de", "en"):
            name = f"{split}.{lang}"
            head(corpora / "multi30k" / name, FIXTURES / "multi30k" / name, count)
    test = args.sources / "python-docs" / "test.tsv"
    head(test, FIXTURES / "python-docs" / "test.tsv", PYTHON_DOCS_LINES)
    print(f"wrote {FIXTURES}")


if __name__ == "__main__":
    main()

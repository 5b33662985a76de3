"""Is a prepared mix leak-free across sources? Every sentence of every held-out TSV (each
source's dev and test, the WMT test sets), normalised as prepare normalises it, looked up among
the train split's source and target sentences. Ends with one JSON line.

    python benchmarks/held_out_leakage.py [--data data/real-zh-en] [--sources data/sources]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import emit, read_lines
from fanyi.data import read_manifest
from fanyi.text.lang import Normalizer, split_tag


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/real-zh-en", help="a prepared data directory")
    parser.add_argument("--sources", default="data/sources", help="where fanyi data wrote")
    args = parser.parse_args()
    config = read_manifest(Path(args.data)).config
    train = {
        split_tag(line)[1]
        for side in ("src", "tgt")
        for line in read_lines(f"{args.data}/train.{side}")
    }
    normalise = {lang: Normalizer(lang, config.nfkc, config.t2s) for lang in ("en", "zh")}
    found: dict[str, list[int]] = {}
    for path in sorted(Path(args.sources).glob("*/*.tsv")):
        if path.name == "train.tsv":
            continue
        rows = [line.split("\t")[:2] for line in read_lines(str(path))]
        texts = [
            normalise[lang].apply(text)[0]
            for row in rows
            for lang, text in zip(("en", "zh"), row, strict=True)
        ]
        found[str(path)] = [len(texts), sum(text in train for text in texts)]
        print(f"{path}: {found[str(path)][1]} of {len(texts)} sentences in train")
    emit(
        {
            "benchmark": "held_out_leakage",
            "data": args.data,
            "sentences": sum(n for n, _ in found.values()),
            "in_train": sum(k for _, k in found.values()),
            "sets": found,
        }
    )


if __name__ == "__main__":
    main()

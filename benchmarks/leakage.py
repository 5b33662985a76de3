"""Does a test set leak into training? Test sentences looked up among the train split's, one
command per kind of split. Ends with one JSON line.

    python benchmarks/leakage.py split [--data configs/data/tatoeba-zh-en.yaml] [--seeds 5]
    python benchmarks/leakage.py held-out [--data data/real-zh-en] [--sources data/sources]

- ``split``: how much of a random test split a model has already seen in training, against
  fanyi's split. A test pair "leaks" when its source or its target sentence also occurs in a
  training pair (Tatoeba holds many sentences with several translations). fanyi's leak-free
  split (docs/data.md) deals whole connected components to test, so none leaks; a plain random
  split of the same pairs, as the tutorials make it, leaks a quarter of them. This is why BLEU on
  a random split and BLEU on fanyi's split are not comparable (docs/quality.md).
- ``held-out``: is a prepared mix leak-free across sources? Every sentence of every held-out
  TSV (each source's dev and test, the WMT test sets), normalised as prepare normalises it,
  looked up among the train split's source and target sentences.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from common import emit, machine, read_lines
from fanyi.config import load_yaml
from fanyi.data import read_manifest
from fanyi.data.build.prepare import clean_and_split
from fanyi.data.config import DataConfig
from fanyi.text.lang import Normalizer, split_tag

Pair = tuple[str, str]


# split ------------------------------------------------------------------------------------------
def leakage(train: list[Pair], test: list[Pair]) -> dict[str, float]:
    """Percent of test pairs whose source, target, or either sentence is in ``train``."""
    sources = {src for src, _ in train}
    targets = {tgt for _, tgt in train}
    seen_src = [src in sources for src, _ in test]
    seen_tgt = [tgt in targets for _, tgt in test]
    percent = 100 / len(test)
    return {
        "source_seen": round(sum(seen_src) * percent, 1),
        "target_seen": round(sum(seen_tgt) * percent, 1),
        "either_seen": round(
            sum(a or b for a, b in zip(seen_src, seen_tgt, strict=True)) * percent, 1
        ),
    }


def random_split(pairs: list[Pair], held_out: int, test_size: int, seed: int) -> dict[str, float]:
    """Shuffle, take the first ``test_size`` as test, the rest past ``held_out`` as train."""
    shuffled = pairs[:]
    random.Random(seed).shuffle(shuffled)
    return leakage(shuffled[held_out:], shuffled[:test_size])


def split(args: argparse.Namespace) -> None:
    config = load_yaml(DataConfig, args.data)
    splits, _ = clean_and_split(config)
    pairs = splits["train"] + splits["dev"] + splits["test"]
    held_out = config.dev_size + config.test_size
    fanyi_split = leakage(splits["train"], splits["test"])
    randoms = [random_split(pairs, held_out, config.test_size, s) for s in range(args.seeds)]
    random_mean = {k: round(statistics.mean(r[k] for r in randoms), 1) for k in randoms[0]}
    print(f"{args.data}: {len(pairs):,} pairs, test {config.test_size:,}")
    print(f"{'split':<28} {'source seen':>12} {'target seen':>12} {'either':>8}   (% of test)")
    for name, row in [
        ("fanyi (leak-free)", fanyi_split),
        (f"random, mean of {args.seeds}", random_mean),
    ]:
        print(
            f"{name:<28} {row['source_seen']:>12} {row['target_seen']:>12} {row['either_seen']:>8}"
        )
    emit({"benchmark": "leakage", "measure": "split", "data": args.data, "pairs": len(pairs),
          "test_size": config.test_size, "fanyi_split": fanyi_split,
          "random_split_mean": random_mean, "random_splits": randoms,
          "machine": machine()})  # fmt: skip


# held-out ---------------------------------------------------------------------------------------
def held_out(args: argparse.Namespace) -> None:
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
    emit({"benchmark": "leakage", "measure": "held-out", "data": args.data,
          "sentences": sum(n for n, _ in found.values()),
          "in_train": sum(k for _, k in found.values()), "sets": found})  # fmt: skip


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measures = parser.add_subparsers(dest="measure", required=True)
    one = measures.add_parser("split", help="a random test split against fanyi's")
    one.add_argument("--data", default="configs/data/tatoeba-zh-en.yaml", help="a data config")
    one.add_argument("--seeds", type=int, default=5, help="random splits to average over")
    one = measures.add_parser("held-out", help="a prepared mix's held-out sets against its train")
    one.add_argument("--data", default="data/real-zh-en", help="a prepared data directory")
    one.add_argument("--sources", default="data/sources", help="where fanyi data wrote")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    {"split": split, "held-out": held_out}[args.measure](args)


if __name__ == "__main__":
    main()

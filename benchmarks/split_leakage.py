"""How much of a random test split a model has already seen in training, against fanyi's split.

A test pair "leaks" when its source or its target sentence also occurs in a training pair (Tatoeba
holds many sentences with several translations). fanyi's leak-free split (docs/data.md) deals
whole connected components to test, so none leaks; a plain random split of the same pairs, as the
tutorials make it, leaks a quarter of them. This is why BLEU on a random split and BLEU on fanyi's
split are not comparable (docs/quality.md).

    python benchmarks/split_leakage.py [--data configs/data/tatoeba-zh-en.yaml] [--seeds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics

from common import emit, machine
from fanyi.config import load_yaml
from fanyi.data.build.prepare import clean_and_split
from fanyi.data.config import DataConfig

Pair = tuple[str, str]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="configs/data/tatoeba-zh-en.yaml")
    parser.add_argument("--seeds", type=int, default=5, help="random splits to average over")
    args = parser.parse_args()

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
    emit(
        {
            "benchmark": "split_leakage",
            "data": args.data,
            "pairs": len(pairs),
            "test_size": config.test_size,
            "fanyi_split": fanyi_split,
            "random_split_mean": random_mean,
            "random_splits": randoms,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

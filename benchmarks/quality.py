"""Translation quality you can reproduce: one recipe, the whole road, one JSON line.

    python benchmarks/quality.py RECIPE [--budget-minutes M | --max-steps N] [--threads T] [--out DIR]

RECIPE is a name in configs/recipes/ (``tatoeba-zh-en``) or a YAML file. The script prepares the
data (a no-op when up to date), trains with ``fanyi train`` within the wall-clock or step budget,
averages the last k ≤ K checkpoints (the k whose average decodes the dev split best),
beam-searches each test set (one direction each; a bidirectional test split is filtered by its
``<2xx>`` tags) and scores it with sacreBLEU: BLEU (tokenizer zh for Chinese targets, 13a
otherwise, case-sensitive) and chrF, with their signatures. It ends with one
JSON line: scores, training time and tokens/s, settings, machine and versions. See docs/quality.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sacrebleu
import sentencepiece
from fanyi.train.checkpoint import average_run

import fanyi
from common import emit, machine, matmul_gflops
from fanyi.config import from_dict, load_yaml, save_yaml, to_dict
from fanyi.data import DataConfig, lang_tag, prepare
from fanyi.data.config import resolve_path
from fanyi.data.vocab import split_tag
from fanyi.decode.config import Dtype
from fanyi.decode.translator import Translator
from fanyi.evaluate import evaluate
from fanyi.train import TrainConfig, read_checkpoint, read_index

REPO = Path(__file__).resolve().parents[1]
RECIPES = REPO / "configs" / "recipes"


@dataclass
class TestSet:
    """One scored direction: a split of the data directory, translated into ``to``."""

    name: str  # also the file name of the output: RUN/NAME.hyp
    split: str = "test"
    to: str | None = None  # default: the data's tgt_lang; bidirectional data: keep <2to> lines


@dataclass
class Recipe:
    """What `quality.py` runs: data and train configs with overrides, averaging, search."""

    data: str  # DataConfig YAML (relative paths: from the repository root)
    train: str  # TrainConfig YAML
    data_overrides: dict[str, Any] = field(default_factory=dict)
    train_overrides: dict[str, Any] = field(default_factory=dict)  # `model:` merges key by key
    budget_minutes: float | None = None  # wall-clock training budget; None: the steps rule
    average: int = 5  # K: average the last k ≤ K kept checkpoints (fewer if fewer were kept)
    average_dev: int = 500  # choose k by greedy BLEU on this many dev pairs a direction (0: k = K)
    beam: int = 5
    length_penalty: float = 0.6  # GNMT α
    dtype: Dtype = "fp32"  # decoding: fp32, bf16 or int8
    test_sets: list[dict[str, Any]] = field(default_factory=lambda: [{"name": "test"}])

    def tests(self) -> list[TestSet]:
        return [from_dict(TestSet, t) for t in self.test_sets]


def load_recipe(name: str) -> tuple[Path, Recipe]:
    """A recipe by name (configs/recipes/NAME.yaml) or by path."""
    path = Path(name)
    if not path.suffix:
        path = RECIPES / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in RECIPES.glob("*.yaml")))
        raise SystemExit(f"no recipe {name!r} (known: {known})")
    return path, load_yaml(Recipe, path)


def from_repo(path: str) -> Path:
    """A config path of a recipe: absolute, or relative to the repository root."""
    return Path(path) if Path(path).is_absolute() else REPO / path


def merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides``; a mapping given for a mapping key updates it key by key."""
    merged = dict(base)
    for key, value in overrides.items():
        both = isinstance(value, dict) and isinstance(merged.get(key), dict)
        merged[key] = {**merged[key], **value} if both else value
    return merged


def data_config(recipe: Recipe, out: Path | None) -> DataConfig:
    """The recipe's DataConfig; with ``--out``, its data directory is OUT/data."""
    base = to_dict(load_yaml(DataConfig, from_repo(recipe.data)))
    values = merge(base, recipe.data_overrides)
    if out is not None:
        values["out_dir"] = str(out / "data")
    return from_dict(DataConfig, values)


def train_config(
    recipe: Recipe, data_dir: str, out: Path | None, args: argparse.Namespace
) -> TrainConfig:
    """The recipe's TrainConfig with the budget of the command line (or the recipe)."""
    base = to_dict(load_yaml(TrainConfig, from_repo(recipe.train)))
    values = merge(base, recipe.train_overrides)
    values.update(data_dir=data_dir, threads=args.threads, progress=args.progress)
    if out is not None:
        values["out_dir"] = str(out / "run")
    if args.max_steps is not None:
        values.update(max_steps=args.max_steps, max_minutes=None)
        # so that a short run still logs its tokens/s
        values["log_every"] = min(values["log_every"], max(1, args.max_steps // 3))
    else:
        values["max_minutes"] = args.budget_minutes or recipe.budget_minutes
    return from_dict(TrainConfig, values)


def run_training(cfg: TrainConfig) -> float:
    """``fanyi train`` on ``cfg`` (saved as RUN/train.yaml) in a child process; its seconds.

    A child process, as a user would run it: `fanyi train` preloads tcmalloc when installed.
    """
    run = Path(cfg.out_dir)
    if (run / "checkpoints.json").exists():
        raise SystemExit(f"{run} already holds a run: remove it, or choose another --out")
    run.mkdir(parents=True, exist_ok=True)
    save_yaml(cfg, run / "train.yaml")
    start = time.perf_counter()
    command = [sys.executable, "-m", "fanyi", "train", "--config", str(run / "train.yaml")]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def training_figures(run: Path, seconds: float | None) -> dict[str, Any]:
    """Steps, wall time (None when rescoring an earlier run), median target tokens/s of the
    logged windows, last validation."""
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    train = [r for r in records if r["kind"] == "train"]
    valid = [r for r in records if r["kind"] == "valid"]
    speeds = [r["tgt_tokens_per_s"] for r in train]
    return {
        "seconds": None if seconds is None else round(seconds, 1),
        "steps": valid[-1]["step"],
        "epochs": valid[-1]["epoch"],
        "tgt_tokens_per_s": round(statistics.median(speeds)) if speeds else None,
        "dtype": read_checkpoint(run, "last").info.get("dtype"),
        "last_valid": {k: v for k, v in valid[-1].items() if k not in ("kind", "best")},
    }


def test_pairs(
    data_dir: Path, test: TestSet, data: DataConfig, limit: int | None
) -> tuple[list[str], list[str], str, str]:
    """(sources without tags, references, source language, target language) of ``test``
    (its first ``limit`` pairs when given)."""
    to = test.to or data.tgt_lang
    source_lang = data.src_lang if to == data.tgt_lang else data.tgt_lang
    sources = (data_dir / f"{test.split}.src").read_text(encoding="utf-8").splitlines()
    refs = (data_dir / f"{test.split}.tgt").read_text(encoding="utf-8").splitlines()
    pairs = [(split_tag(s), r) for s, r in zip(sources, refs, strict=True)]
    if data.lang_tags:
        pairs = [(t, r) for t, r in pairs if t[0] == lang_tag(to)]
    if not pairs:
        raise SystemExit(f"{data_dir}/{test.split}: no sources into {to!r}")
    pairs = pairs[:limit]
    return [text for (_, text), _ in pairs], [r for _, r in pairs], source_lang, to


def score_test(
    translator: Translator,
    data_dir: Path,
    test: TestSet,
    data: DataConfig,
    run: Path,
    limit: int | None,
) -> dict[str, Any]:
    """Beam-search one test set, write RUN/NAME.hyp, score it; print sacreBLEU's lines."""
    sources, refs, source_lang, to = test_pairs(data_dir, test, data, limit)
    start = time.perf_counter()
    hypotheses, scores = evaluate(translator, sources, [refs], to=to)
    seconds = time.perf_counter() - start
    (run / f"{test.name}.hyp").write_text("".join(f"{h}\n" for h in hypotheses), encoding="utf-8")
    print(f"{test.name} ({source_lang}→{to}, {len(sources)} sentences):")
    print("\n".join(f"  {line}" for line in scores.lines))
    return {
        "direction": f"{source_lang}-{to}",
        "sentences": len(sources),
        "bleu": round(scores.bleu, 2),
        "chrf": round(scores.chrf, 2),
        "bleu_signature": scores.bleu_signature,
        "chrf_signature": scores.chrf_signature,
        "decode_seconds": round(seconds, 2),
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", metavar="RECIPE", help="configs/recipes/NAME.yaml, or a file")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--budget-minutes", type=float, help="wall-clock training budget")
    budget.add_argument("--max-steps", type=int, help="a step budget instead (smoke runs)")
    parser.add_argument(
        "--threads",
        type=int,
        default=len(os.sched_getaffinity(0)),
        help="threads for training and decoding (default: every core)",
    )
    parser.add_argument("--out", type=Path, help="write OUT/data and OUT/run instead")
    parser.add_argument(
        "--test-limit", type=int, help="score only the first N pairs of each test set (smoke runs)"
    )
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="no training: average and score the run already in the run directory",
    )
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    return parser.parse_args()


def choose_average(recipe: Recipe, data: DataConfig, run: Path, args: argparse.Namespace) -> dict:
    """Average the last k = 1…K kept checkpoints; keep the k whose model scores the best greedy
    BLEU on the dev split (mean over the test sets' directions), so that a short run does not
    average in checkpoints from early in training. Returns k and the dev BLEU of each k."""
    most = min(recipe.average, len(read_index(run)["kept"]))
    if recipe.average_dev <= 0:
        average_run(run, most)
        return {"k": most, "dev_bleu": {}}
    data_dir = resolve_path(data.out_dir)
    dev_sets = [
        test_pairs(data_dir, dataclasses.replace(t, split="dev"), data, recipe.average_dev)
        for t in recipe.tests()
    ]
    dev_bleu = {}
    for k in range(1, most + 1):
        translator = Translator.load(average_run(run, k), threads=args.threads, beam=1)
        bleus = [
            evaluate(translator, sources, [refs], to=to)[1].bleu
            for sources, refs, _, to in dev_sets
        ]
        dev_bleu[k] = round(statistics.mean(bleus), 2)
        print(f"average of the last {k}: dev BLEU {dev_bleu[k]:.2f} (greedy)")
    k = max(dev_bleu, key=lambda k: (dev_bleu[k], k))  # a tie goes to the larger average
    average_run(run, k)
    return {"k": k, "dev_bleu": dev_bleu}


def score_tests(
    recipe: Recipe, model_dir: Path, data: DataConfig, run: Path, args: argparse.Namespace
) -> dict[str, dict[str, Any]]:
    """Load the averaged model once; beam-search and score every test set of the recipe."""
    translator = Translator.load(
        model_dir,
        threads=args.threads,
        dtype=recipe.dtype,
        beam=recipe.beam,
        length_penalty=recipe.length_penalty,
    )
    data_dir = resolve_path(data.out_dir)
    return {
        t.name: score_test(translator, data_dir, t, data, run, args.test_limit)
        for t in recipe.tests()
    }


def main() -> None:
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    recipe_file, recipe = load_recipe(args.recipe)
    data = data_config(recipe, args.out)
    manifest = prepare(data)
    cfg = train_config(recipe, str(resolve_path(data.out_dir)), args.out, args)
    run = Path(cfg.out_dir)
    if args.rescore:
        if not (run / "checkpoints.json").exists():
            raise SystemExit(f"--rescore: {run} holds no run")
        cfg = load_yaml(TrainConfig, run / "train.yaml")
    host = machine() | {"matmul_gflops": matmul_gflops(args.threads)}
    print(f"host: {host['cpu']}, matmul GFLOP/s on {args.threads} threads: {host['matmul_gflops']}")
    figures = training_figures(run, None if args.rescore else run_training(cfg))
    average = choose_average(recipe, data, run, args)
    averaged = average["k"]
    model_dir = run / "averaged"
    tests = score_tests(recipe, model_dir, data, run, args)
    took = "" if args.rescore else f" in {figures['seconds']:.0f} s"
    print(
        f"trained {figures['steps']} steps{took} "
        f"({figures['tgt_tokens_per_s']} target tokens/s, {figures['dtype']}); averaged {averaged}"
    )
    settings = {
        "recipe": dataclasses.asdict(recipe),
        "averaged": averaged,
        "averaged_dev_bleu": average["dev_bleu"],
        "rescore": args.rescore,
        "threads": args.threads,
        "test_limit": args.test_limit,
        "budget_minutes": cfg.max_minutes,
        "max_steps": cfg.max_steps,
        "train_config": to_dict(cfg),
        "data_pairs": manifest["pairs"],
    }
    emit(
        {
            "benchmark": "quality",
            "recipe": recipe_file.stem,
            "tests": tests,
            "train": figures,
            "settings": settings,
            "run": str(run),
            "model_dir": str(model_dir),
            "machine": host,
            "versions": {
                "fanyi": fanyi.__version__,
                "sacrebleu": sacrebleu.__version__,
                "sentencepiece": sentencepiece.__version__,
            },
        }
    )


if __name__ == "__main__":
    main()

"""Recipes: the whole road from a corpus to scores, one command (``fanyi recipe RECIPE``).

A recipe (``configs/recipes/NAME.yaml``) names a data config and a training config with keys
changed on top of them, a wall-clock budget, how many checkpoints to average at most, the search
and the test sets. Running it prepares the data (a no-op when up to date), trains with
``fanyi train`` in a child process within the budget, averages the last k ≤ K checkpoints (the k
whose average decodes the dev split best), beam-searches each test set (one direction each) and
scores it with sacreBLEU. Paths in a recipe are relative to the current directory (the
repository root). See docs/quality.md.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import from_dict, load_yaml, save_yaml, to_dict
from .data import DataConfig
from .data.build import prepare
from .data.build.download import REGISTRY, cache_dir
from .data.config import resolve_path
from .data.manifest import Manifest, read_pairs
from .evaluate import evaluate
from .filenames import AVERAGED_DIR, INDEX_FILE, TRAIN_CONFIG_FILE
from .model_dir import average_run, read_checkpoint, read_index
from .train import TrainConfig
from .train.log import read_log
from .translate.translator import Translator

RECIPES = Path("configs") / "recipes"


@dataclass
class TestSet:
    """One scored direction: a split of the data directory, translated into ``to``."""

    name: str  # also the file name of the output: RUN/NAME.hyp
    split: str = "test"
    to: str | None = None  # default: the data's tgt_lang; bidirectional data: keep <2to> lines


@dataclass
class Recipe:
    """Data and train configs with overrides, the budget, averaging, search, test sets."""

    data: str  # DataConfig YAML
    train: str  # TrainConfig YAML
    data_overrides: dict[str, Any] = field(default_factory=dict)
    train_overrides: dict[str, Any] = field(default_factory=dict)  # `model:` merges key by key
    budget_minutes: float | None = None  # wall-clock training budget; None: the steps rule
    average: int = 5  # K: average the last k ≤ K kept checkpoints (fewer if fewer were kept)
    average_dev: int = 500  # choose k by greedy BLEU on this many dev pairs a direction (0: k = K)
    # DecodeConfig keys the test sets are searched by (beam, length_penalty, …), over the
    # model's own and fp32 (a recipe's scores do not depend on the host's fastest dtype)
    decode: dict[str, Any] = field(default_factory=dict)
    test_sets: list[TestSet] = field(default_factory=lambda: [TestSet("test")])


@dataclass
class RunOptions:
    """How to run a recipe this time (the flags of ``fanyi recipe``)."""

    budget_minutes: float | None = None  # instead of the recipe's budget
    max_steps: int | None = None  # a step budget instead (smoke runs)
    threads: int = 1  # for training and decoding
    out: Path | None = None  # write OUT/data and OUT/run instead of the recipe's paths
    test_limit: int | None = None  # score only the first N pairs of each test set
    rescore: bool = False  # no training: average and score the run already there
    progress: bool = True


def load_recipe(name: str) -> tuple[Path, Recipe]:
    """A recipe by name (configs/recipes/NAME.yaml) or by path."""
    path = Path(name)
    if not path.suffix:
        path = RECIPES / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in RECIPES.glob("*.yaml")))
        raise FileNotFoundError(f"no recipe {name!r} (known in {RECIPES}: {known})")
    return path, load_yaml(Recipe, path)


def merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides``; a mapping given for a mapping key updates it key by key."""
    merged = dict(base)
    for key, value in overrides.items():
        both = isinstance(value, dict) and isinstance(merged.get(key), dict)
        merged[key] = {**merged[key], **value} if both else value
    return merged


def data_config(recipe: Recipe, out: Path | None) -> DataConfig:
    """The recipe's DataConfig; with ``out``, its data directory is OUT/data."""
    values = merge(to_dict(load_yaml(DataConfig, recipe.data)), recipe.data_overrides)
    if out is not None:
        values["out_dir"] = str(out / "data")
    return from_dict(DataConfig, values)


def train_config(recipe: Recipe, data_dir: str, options: RunOptions) -> TrainConfig:
    """The recipe's TrainConfig with the budget of the options (or the recipe)."""
    values = merge(to_dict(load_yaml(TrainConfig, recipe.train)), recipe.train_overrides)
    values.update(data_dir=data_dir, threads=options.threads, progress=options.progress)
    if options.out is not None:
        values["out_dir"] = str(options.out / "run")
    if options.max_steps is not None:
        values.update(max_steps=options.max_steps, max_minutes=None)
        # so that a short run still logs its tokens/s
        values["log_every"] = min(values["log_every"], max(1, options.max_steps // 3))
    else:
        values["max_minutes"] = options.budget_minutes or recipe.budget_minutes
    return from_dict(TrainConfig, values)


def run_training(cfg: TrainConfig) -> float:
    """``fanyi train`` on ``cfg`` (saved beside RUN as RUN.train.yaml) in a child process; its seconds.

    A child process, as a user would run it: ``fanyi train`` preloads tcmalloc when installed.
    """
    run = Path(cfg.out_dir)
    if (run / INDEX_FILE).exists():
        raise ValueError(f"{run} already holds a run: remove it, or choose another --out")
    run.parent.mkdir(parents=True, exist_ok=True)
    config = run.parent / f"{run.name}.{TRAIN_CONFIG_FILE}"  # beside the run: train starts it empty
    save_yaml(cfg, config)
    start = time.perf_counter()
    command = [sys.executable, "-m", "fanyi", "train", "--config", str(config)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def training_figures(run: Path, seconds: float | None) -> dict[str, Any]:
    """Steps, wall time (None when rescoring an earlier run), median target tokens/s of the
    logged windows, last validation."""
    records = read_log(run)
    valid = [r for r in records if r["kind"] == "valid"]
    speeds = [r["tgt_tokens_per_s"] for r in records if r["kind"] == "train"]
    return {
        "seconds": None if seconds is None else round(seconds, 1),
        "steps": valid[-1]["step"],
        "epochs": valid[-1]["epoch"],
        "tgt_tokens_per_s": round(statistics.median(speeds)) if speeds else None,
        "dtype": read_checkpoint(run, "last").info.dtype,
        "last_valid": {k: v for k, v in valid[-1].items() if k not in ("kind", "best")},
    }


def choose_average(recipe: Recipe, data: DataConfig, run: Path) -> dict[str, Any]:
    """Average the last k = 1…K kept checkpoints; keep the k whose model scores the best greedy
    BLEU on the dev split (mean over the test sets' directions), so that a short run does not
    average in checkpoints from early in training. Returns k and the dev BLEU of each k."""
    most = min(recipe.average, len(read_index(run)["kept"]))
    if recipe.average_dev <= 0:
        average_run(run, most, overwrite=True)
        return {"k": most, "dev_bleu": {}}
    data_dir = resolve_path(data.out_dir)
    dev_sets = [read_pairs(data_dir, "dev", t.to, recipe.average_dev) for t in recipe.test_sets]
    dev_bleu = {}
    for k in range(1, most + 1):
        translator = Translator.load(average_run(run, k, overwrite=True), beam=1, dtype="fp32")
        bleus = [evaluate(translator, d.sources, [d.references], d.to)[1].bleu for d in dev_sets]
        dev_bleu[k] = round(statistics.mean(bleus), 2)
        print(f"average of the last {k}: dev BLEU {dev_bleu[k]:.2f} (greedy)")
    k = max(dev_bleu, key=lambda k: (dev_bleu[k], k))  # a tie goes to the larger average
    average_run(run, k, overwrite=True)
    return {"k": k, "dev_bleu": dev_bleu}


def score_test(
    translator: Translator, data_dir: Path, test: TestSet, run: Path, limit: int | None
) -> dict[str, Any]:
    """Beam-search one test set, write RUN/NAME.hyp, score it; print sacreBLEU's lines."""
    pairs = read_pairs(data_dir, test.split, test.to, limit)
    start = time.perf_counter()
    hypotheses, scores = evaluate(translator, pairs.sources, [pairs.references], pairs.to)
    seconds = time.perf_counter() - start
    (run / f"{test.name}.hyp").write_text("".join(f"{h}\n" for h in hypotheses), encoding="utf-8")
    print(f"{test.name} ({pairs.source_lang}→{pairs.to}, {len(pairs.sources)} sentences):")
    print("\n".join(f"  {line}" for line in scores.lines))
    return {
        "direction": f"{pairs.source_lang}-{pairs.to}",
        "sentences": len(pairs.sources),
        "bleu": round(scores.bleu, 2),
        "chrf": round(scores.chrf, 2),
        "bleu_signature": scores.bleu_signature,
        "chrf_signature": scores.chrf_signature,
        "decode_seconds": round(seconds, 2),
    }


def score_tests(
    recipe: Recipe, model_dir: Path, data: DataConfig, run: Path, limit: int | None
) -> dict[str, dict[str, Any]]:
    """Load the averaged model once; beam-search and score every test set of the recipe."""
    translator = Translator.load(model_dir, **{"dtype": "fp32", **recipe.decode})
    data_dir = resolve_path(data.out_dir)
    return {t.name: score_test(translator, data_dir, t, run, limit) for t in recipe.test_sets}


def _trained(cfg: TrainConfig, options: RunOptions) -> tuple[TrainConfig, float | None]:
    """Train (or, rescoring, find the run's own config); the config and the seconds taken."""
    run = Path(cfg.out_dir)
    if not options.rescore:
        return cfg, run_training(cfg)
    if not (run / INDEX_FILE).exists():
        raise ValueError(f"--rescore: {run} holds no run")
    beside = run.parent / f"{run.name}.{TRAIN_CONFIG_FILE}"
    return load_yaml(TrainConfig, beside if beside.is_file() else run / TRAIN_CONFIG_FILE), None


def prepared(data: DataConfig) -> Manifest:
    """``prepare(data)``, where a missing corpus says how to get it."""
    try:
        return prepare(data)
    except FileNotFoundError as error:
        corpus = resolve_path(data.train).parent.name
        fetch = f"`fanyi data download {corpus}` fetches it" if corpus in REGISTRY else "fetch it"
        raise FileNotFoundError(
            f"{error}: {fetch}; then set FANYI_DATA={cache_dir()} (in a clone of fanyi, "
            f"FANYI_DATA=tests/fixtures/data holds the first lines of both corpora, enough for "
            "the tiny-test recipe)"
        ) from None


def run_recipe(name: str, options: RunOptions) -> dict[str, Any]:
    """Prepare, train, average, score (module docstring); the figures as one dict."""
    recipe_file, recipe = load_recipe(name)
    data = data_config(recipe, options.out)
    manifest = prepared(data)
    cfg = train_config(recipe, str(resolve_path(data.out_dir)), options)
    cfg, seconds = _trained(cfg, options)
    run = Path(cfg.out_dir)
    figures = training_figures(run, seconds)
    average = choose_average(recipe, data, run)
    tests = score_tests(recipe, run / AVERAGED_DIR, data, run, options.test_limit)
    took = "" if seconds is None else f" in {seconds:.0f} s"
    print(
        f"trained {figures['steps']} steps{took} ({figures['tgt_tokens_per_s']} target "
        f"tokens/s, {figures['dtype']}); averaged {average['k']}"
    )
    settings = {
        "recipe": dataclasses.asdict(recipe),
        "averaged": average["k"],
        "averaged_dev_bleu": average["dev_bleu"],
        "threads": options.threads,
        "budget_minutes": cfg.max_minutes,
        "max_steps": cfg.max_steps,
        "train_config": to_dict(cfg),
        "data_pairs": manifest.pairs,
    }
    settings |= {k: getattr(options, k) for k in ("rescore", "test_limit")}
    result = {"recipe": recipe_file.stem, "tests": tests, "train": figures, "settings": settings}
    return result | {"run": str(run), "model_dir": str(run / AVERAGED_DIR)}


def as_json(result: dict[str, Any]) -> str:
    """One line of JSON, the last line a recipe prints."""
    return json.dumps(result, ensure_ascii=False, sort_keys=True)

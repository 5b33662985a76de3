"""Choosing a model's length penalty α, and the dtypes it may decode in, on the dev split.

Beam search ranks hypotheses by log P(Y|X) / lp(Y); a larger α favours longer outputs. A model
whose translations come out short (BLEU's brevity penalty below 1) gains from a larger α, up to
the point where precision falls. Each α is scored into every language the model translates into,
and the α of the best mean BLEU wins (the first one given, on a tie); or, per target language,
the α of its best BLEU among those whose outputs are long enough (``best_per_target``), which
``length_penalty_by_target`` then holds. ``fanyi tune --write``
stores it in the ``decode`` section of the model's ``config.yaml``, where ``Translator.load``
finds its defaults (GNMT, Wu et al. 2016, §7). Tune on dev only: the test split stays unseen.

A bidirectional model may also rerank its beam by how well each hypothesis translates back
(``rerank_backward``, decode/rerank.py); ``tune_setting`` scores each weight λ with the chosen α,
and then each β of ``script_penalty``: what a piece in the other language's script costs (an
English word left untranslated in Chinese, decode/options.py).

bf16 and int8 decode faster on some CPUs and may cost BLEU; ``tune_dtypes`` scores each with the
chosen α, and the dtypes within ``TOLERANCE`` BLEU of fp32 in every direction become the model's
``auto_dtypes``: the ones ``dtype: auto`` may pick (``fanyi.engines.dtype``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .data.manifest import SplitPairs, read_pairs
from .decode.options import Dtype, SearchOptions
from .evaluate import evaluate
from .scores import Scores
from .translate.translator import Translator

TOLERANCE = 0.3  # BLEU a faster dtype may lose against fp32, in every direction


@dataclass
class Trial:
    """The scores of one length penalty (with a reranking weight λ and a script penalty β), per
    target language."""

    length_penalty: float
    scores: dict[str, Scores]
    rerank_backward: float = 0.0
    script_penalty: float = 0.0

    @property
    def mean_bleu(self) -> float:
        return sum(s.bleu for s in self.scores.values()) / len(self.scores)


def tune_length_penalty(
    translator: Translator,
    data_dir: str | Path,
    alphas: Sequence[float],
    split: str = "dev",
    targets: Sequence[str] | None = None,
    options: SearchOptions | None = None,
) -> list[Trial]:
    """Score ``translator`` on ``split`` of ``data_dir`` with each length penalty in ``alphas``
    (over ``options``, default the translator's), into each of ``targets`` (default: every
    language the model translates into)."""
    if not alphas:
        raise ValueError("give at least one length penalty to try")
    settings = [{"length_penalty": a, "length_penalty_by_target": {}} for a in alphas]
    found = _scores_with(translator, options, settings, data_dir, split, targets)
    return [Trial(alpha, scores) for alpha, scores in zip(alphas, found, strict=True)]


def tune_setting(
    translator: Translator,
    data_dir: str | Path,
    setting: str,
    values: Sequence[float],
    split: str = "dev",
    targets: Sequence[str] | None = None,
    options: SearchOptions | None = None,
) -> list[Trial]:
    """Score ``translator`` (with the α, λ and β of ``options``, default its own) with each of
    ``values`` for ``setting``, into each of ``targets``: ``rerank_backward``, the weight λ of
    the backward score (0: the beam's own order; decode/rerank.py), or ``script_penalty``, β
    (0: none; decode/options.py). The value applies into every language."""
    if setting not in ("rerank_backward", "script_penalty"):
        raise ValueError(f"tune rerank_backward or script_penalty, not {setting!r}")
    settings = [{setting: v, f"{setting}_by_target": {}} for v in values]
    found = _scores_with(translator, options, settings, data_dir, split, targets)
    chosen = options or translator.options
    base = Trial(chosen.length_penalty, {}, chosen.rerank_backward, chosen.script_penalty)
    return [
        dataclasses.replace(base, scores=scores, **{setting: v})
        for v, scores in zip(values, found, strict=True)
    ]


def _scores_with(
    translator: Translator,
    options: SearchOptions | None,
    settings: list[dict],
    data_dir: str | Path,
    split: str,
    targets: Sequence[str] | None,
) -> list[dict[str, Scores]]:
    """The scores of ``translator`` with each of ``settings`` (SearchOptions keys) in turn over
    ``options`` (default the translator's)."""
    test_sets = [read_pairs(data_dir, split, to) for to in targets or translator.targets]
    base = options or translator.options
    return [_scores(translator, test_sets, dataclasses.replace(base, **s)) for s in settings]


@dataclass
class DtypeTrial:
    """The scores of one decoding dtype, per target language."""

    dtype: Dtype
    scores: dict[str, Scores]


def tune_dtypes(
    translator: Translator,
    data_dir: str | Path,
    dtypes: Sequence[Dtype] = ("fp32", "bf16", "int8"),
    split: str = "dev",
    targets: Sequence[str] | None = None,
    options: SearchOptions | None = None,
) -> list[DtypeTrial]:
    """Score ``translator``'s model (loaded in fp32) in each of ``dtypes`` on ``split``, each
    the engine's own conversion (``Engine.with_dtype``), searching by ``options`` (default the
    translator's)."""
    engine = translator.engine
    if engine.options.dtype != "fp32":
        raise ValueError(f"compare dtypes from an fp32 translator, not {engine.options.dtype}")
    test_sets = [read_pairs(data_dir, split, to) for to in targets or translator.targets]
    trials = []
    for dtype in dtypes:
        other = Translator(engine.with_dtype(dtype), translator.options)
        trials.append(DtypeTrial(dtype, _scores(other, test_sets, options)))
    return trials


def allowed_dtypes(trials: Sequence[DtypeTrial], tolerance: float = TOLERANCE) -> list[Dtype]:
    """fp32 and the dtypes whose BLEU is within ``tolerance`` of fp32's in every direction."""
    fp32 = next(t for t in trials if t.dtype == "fp32").scores
    return [
        t.dtype
        for t in trials
        if all(s.bleu >= fp32[to].bleu - tolerance for to, s in t.scores.items())
    ]


def _scores(
    translator: Translator, test_sets: list[SplitPairs], options: SearchOptions | None = None
) -> dict[str, Scores]:
    """BLEU and chrF of ``translator`` (searching by ``options``) on each test set, by target."""
    return {
        pairs.to: evaluate(translator, pairs.sources, [pairs.references], pairs.to, options)[1]
        for pairs in test_sets
    }


def best_trial(trials: Sequence[Trial]) -> Trial:
    """The trial of the highest mean BLEU (the earliest of equals)."""
    return max(trials, key=lambda trial: trial.mean_bleu)


def best_per_target(
    trials: Sequence[Trial], min_length_ratio: float = 0.0, setting: str = "length_penalty"
) -> dict[str, float]:
    """Per target language, the ``setting`` (α, λ: ``rerank_backward``, or β: ``script_penalty``)
    of the highest BLEU among the trials whose length ratio (output / reference) reaches
    ``min_length_ratio`` there; among all, where none does."""
    chosen = {}
    for lang in trials[0].scores:
        long_enough = [t for t in trials if t.scores[lang].length_ratio >= min_length_ratio]
        best = max(long_enough or trials, key=lambda t: t.scores[lang].bleu)
        chosen[lang] = getattr(best, setting)
    return chosen

"""Choosing a model's length penalty α on the dev split (GNMT, Wu et al. 2016, §7).

Beam search ranks hypotheses by log P(Y|X) / lp(Y); a larger α favours longer outputs. A model
whose translations come out short (BLEU's brevity penalty below 1) gains from a larger α, up to
the point where precision falls. Each α is scored into every language the model translates into,
and the α of the best mean BLEU wins (the first one given, on a tie). ``fanyi tune --write``
stores it in the ``decode`` section of the model's ``config.yaml``, where ``Translator.load``
finds its defaults. Tune on dev only: the test split stays unseen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .data.manifest import read_pairs
from .decode.translator import Translator
from .evaluate import Scores, evaluate


@dataclass
class Trial:
    """The scores of one length penalty, per target language."""

    length_penalty: float
    scores: dict[str, Scores]

    @property
    def mean_bleu(self) -> float:
        return sum(s.bleu for s in self.scores.values()) / len(self.scores)


def tune_length_penalty(
    translator: Translator,
    data_dir: str | Path,
    alphas: Sequence[float],
    split: str = "dev",
    targets: Sequence[str] | None = None,
) -> list[Trial]:
    """Score ``translator`` on ``split`` of ``data_dir`` with each length penalty in ``alphas``,
    into each of ``targets`` (default: every language the model translates into)."""
    if not alphas:
        raise ValueError("give at least one length penalty to try")
    test_sets = [read_pairs(data_dir, split, to) for to in targets or translator.targets]
    base, trials = translator.config, []
    try:
        for alpha in alphas:
            translator.config = dataclasses.replace(base, length_penalty=alpha)
            scores = {
                pairs.to: evaluate(translator, pairs.sources, [pairs.references], pairs.to)[1]
                for pairs in test_sets
            }
            trials.append(Trial(alpha, scores))
    finally:
        translator.config = base
    return trials


def best_trial(trials: Sequence[Trial]) -> Trial:
    """The trial of the highest mean BLEU (the earliest of equals)."""
    return max(trials, key=lambda trial: trial.mean_bleu)

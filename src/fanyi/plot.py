"""Training and validation curves of a run (attention and positional plots: plot_attention.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt

from .train.log import read_log

CURVES_FILE = "curves.png"  # in the run directory, unless another file is named


def _series(records: list[dict[str, Any]], kind: str, key: str) -> tuple[list, list]:
    points = [(r["step"], r[key]) for r in records if r["kind"] == kind and key in r]
    return [s for s, _ in points], [v for _, v in points]


def plot_curves(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Loss (train and dev), dev BLEU/chrF and learning rate against the step, as a PNG."""
    records = read_log(run_dir)
    out = Path(out) if out else Path(run_dir) / CURVES_FILE
    fig, (loss_ax, score_ax, lr_ax) = plt.subplots(1, 3, figsize=(15, 4), constrained_layout=True)
    loss_ax.plot(*_series(records, "train", "loss"), label="train (label-smoothed)")
    loss_ax.plot(*_series(records, "valid", "dev_loss"), "o-", label="dev (label-smoothed)")
    loss_ax.plot(*_series(records, "valid", "dev_nll"), "s--", label="dev NLL")
    loss_ax.set(title="loss per target token", xlabel="step", ylabel="nats")
    score_ax.plot(*_series(records, "valid", "bleu"), "o-", label="BLEU")
    score_ax.plot(*_series(records, "valid", "chrf"), "s-", label="chrF")
    score_ax.set(title="dev scores (greedy)", xlabel="step")
    lr_ax.plot(*_series(records, "train", "lr"))
    lr_ax.set(title="learning rate (§5.3)", xlabel="step")
    for ax in (loss_ax, score_ax):
        ax.legend()
    for ax in (loss_ax, score_ax, lr_ax):
        ax.grid(alpha=0.3)
    fig.suptitle(str(run_dir))
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out

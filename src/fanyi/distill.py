"""Self-distillation, or data diversification (Nguyen et al. 2020; Kim & Rush 2016, §3).

A trained model translates its own training sources, into every language it translates into:
each real pair (x, y) gives the synthetic pairs (x, ŷ) and, from the other direction, (x̂, y).
Added to the real pairs (``extra_train`` of a data config), they show the next model the same
sources with the teacher's smoother targets. The synthetic pairs are written as rows of the
training corpus's own TSV layout (the data directory's ``columns``), so the data config that made
the directory reads them too. A synthetic target equal to the real one adds nothing and is left
out, and so are the concatenated training lines (``concat_augment``): their translation is the
join of their sentences' translations, which are already there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from .data.config import DataConfig
from .data.manifest import read_manifest, read_pairs
from .text.lang import split_sentences
from .translate.translator import Translator

NOTE = "fanyi distill"  # in the TSV's other columns (Tatoeba's attribution), to tell rows apart


@dataclass
class Distilled:
    """What ``distill`` wrote and left out, per target language."""

    written: dict[str, int]
    same_as_reference: dict[str, int]
    concatenated: dict[str, int]


def distill(
    translator: Translator,
    data_dir: str | Path,
    output: str | Path,
    split: str = "train",
    limit: int | None = None,
) -> Distilled:
    """Translate the sources of ``split`` of ``data_dir`` (the first ``limit`` of each direction)
    with ``translator`` and write the synthetic pairs to the TSV ``output``."""
    config = read_manifest(data_dir).config
    if config.format != "tsv":
        raise ValueError(f"{data_dir}: distill writes TSV rows; the data is {config.format!r}")
    rows: list[str] = []
    report = Distilled({}, {}, {})
    for to in translator.targets:
        pairs = read_pairs(data_dir, split, to, limit)
        single = [
            (s, r)
            for s, r in zip(pairs.sources, pairs.references, strict=True)
            if len(split_sentences(s, pairs.source_lang)) == 1
        ]
        hypotheses = _translate(translator, [s for s, _ in single], to)
        kept = [(s, h) for (s, r), h in zip(single, hypotheses, strict=True) if h and h != r]
        rows += [_row(config, {pairs.source_lang: s, to: h}) for s, h in kept]
        report.written[to] = len(kept)
        report.same_as_reference[to] = len(single) - len(kept)
        report.concatenated[to] = len(pairs.sources) - len(single)
    _write(Path(output), rows)
    return report


def _translate(translator: Translator, sources: list[str], to: str) -> list[str]:
    """Translate in chunks, with a progress bar (sentences/s) on stderr."""
    chunk = 1024
    hypotheses: list[str] = []
    with tqdm(total=len(sources), desc=f"→{to}", unit="sent", disable=None) as bar:
        for start in range(0, len(sources), chunk):
            results = translator.translate(sources[start : start + chunk], to, n_best=1)
            hypotheses += [result.text for result in results]
            bar.update(min(chunk, len(sources) - start))
    return hypotheses


def _row(config: DataConfig, texts: dict[str, str]) -> str:
    """One TSV line: each language's text in its column, the note in the others."""
    fields = [NOTE] * (config.num_columns or max(config.columns.values()) + 1)
    for lang, text in texts.items():
        fields[config.columns[lang]] = " ".join(text.split())
    return "\t".join(fields) + "\n"


def _write(path: Path, rows: list[str]) -> None:
    """Write through a temporary file, so an interrupted run leaves no half-written corpus."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(rows), encoding="utf-8")
    os.replace(tmp, path)

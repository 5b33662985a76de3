"""The real-text sources ``fanyi data NAME`` knows, and how one is written to a folder.

Each :class:`RealSource` names a public git repository, its licence and its reader
(:mod:`fanyi.data.build.sources` for documentation, captions and WMT test sets;
:mod:`fanyi.data.build.news_sources` for News Commentary, the UN corpus and WMT23).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from ...outputs import claim_dir, written_dir
from .news_sources import read_news_commentary, read_un_dev, read_wmt23
from .repository import Repository, clone, local_source
from .sources import (
    Collected,
    RealSource,
    read_3am,
    read_django_docs,
    read_python_docs,
    read_wider_tests,
    read_wmt_news,
    write_tsv,
)

SOURCES = {
    source.name: source
    for source in (
        RealSource(
            "python-docs",
            "Python documentation, Simplified Chinese translation (gettext catalogues)",
            "https://github.com/python/python-docs-zh-cn",
            "translations CC0 1.0 (the repository's contribution agreement); English source "
            "under the PSF documentation licence",
            read_python_docs,
        ),
        RealSource(
            "django-docs",
            "Django documentation, zh_Hans translation (gettext catalogues)",
            "https://github.com/django/django-docs-translations",
            "Django documentation, BSD-3-Clause (the repository has no LICENSE file of its own)",
            read_django_docs,
        ),
        RealSource(
            "3am",
            "3AM: ambiguity-aware multimodal MT captions, English–Chinese (Ma et al. 2024)",
            "https://github.com/MaxyLee/3AM",
            "MIT",
            read_3am,
        ),
        RealSource(
            "wmt-news",
            "WMT news test sets zh–en/en–zh 2017–2021, as kept by Helsinki-NLP/OPUS-MT-testsets",
            "https://github.com/Helsinki-NLP/OPUS-MT-testsets",
            "WMT test sets: research use (WMT terms of use); cite the WMT findings",
            read_wmt_news,
        ),
        RealSource(
            "wider-tests",
            "Test-only sets never trained on: FLORES-200 devtest (Wikipedia-style), TICO-19 test "
            "(COVID-19, medical), WMT22 general test zh-en/en-zh, as kept by "
            "Helsinki-NLP/OPUS-MT-testsets",
            "https://github.com/Helsinki-NLP/OPUS-MT-testsets",
            "FLORES-200: CC BY-SA 4.0 (Meta AI; credit it, share alike); TICO-19: CC0 1.0; "
            "WMT22 general test: research use (WMT terms of use), cite the WMT22 findings",
            read_wider_tests,
        ),
        RealSource(
            "news-commentary",
            "WMT News Commentary zh–en, its first 10,000 pairs (commentary on world affairs, "
            "Project Syndicate), as kept in the AP0004 course dataset",
            "https://github.com/CAgent05/AP004",
            "News Commentary: research use (WMT terms of use, as the WMT news test sets); "
            "cite the WMT findings",
            read_news_commentary,
        ),
        RealSource(
            "un-dev",
            "UN Parallel Corpus v1.0 development set zh–en (UN documents, 4,000 pairs)",
            "https://github.com/scollins83/language_translator",
            "UN Parallel Corpus: free to use; acknowledge it (Ziemski, Junczys-Dowmunt & "
            "Pouliquen 2016) and keep the UN disclaimer: the corpus is provided as is, without "
            "warranty, and does not carry the UN's endorsement",
            read_un_dev,
        ),
        RealSource(
            "wmt23",
            "Test-only: WMT23 general test zh-en (Chinese-original: news, manuals, e-commerce "
            "reviews) and en-zh (English-original), reference A",
            "https://github.com/wmt-conference/wmt23-news-systems",
            "WMT23 general test: research use (WMT terms of use); cite the WMT23 findings",
            read_wmt23,
        ),
    )
}


def build_source(
    name: str,
    out: str | Path,
    local: str | Path | None = None,
    cache: Path | None = None,
    branches: str | None = None,
    overwrite: bool = False,
) -> dict[str, int]:
    """Write source ``name`` into folder ``out`` (over one fanyi wrote only with ``overwrite``:
    ``outputs.claim_dir``) from ``local`` (a clone or folder) or, when none is given, from a
    clone made in ``cache``; return the pairs written per file."""
    source, out = SOURCES[name], claim_dir(out, overwrite)
    cached = Path(cache or ".") / f"{name}.git"
    path = local_source(local) if local else clone(source.clone_url, cached)
    collected = source.read(Repository(path), branches)
    counts = {role: len(pairs) for role, pairs in collected.files.items()}
    if not any(counts.values()):
        raise ValueError(f"{path}: no {name} pairs found (a clone or snapshot of {source.url}?)")
    with written_dir(out) as folder:
        for role, pairs in collected.files.items():
            write_tsv(folder / f"{role}.tsv", pairs)
        report = {"source": name, "pairs": counts, **collected.report}
        text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
        (folder / "report.json").write_text(text, encoding="utf-8")
        (folder / "PROVENANCE.md").write_text(provenance(source, path, collected), encoding="utf-8")
    return counts


def provenance(source: RealSource, path: Path, collected: Collected) -> str:
    branches = "\n".join(
        f"- `{b}` at `{c or 'unversioned'}`" for b, c in collected.branches.items()
    )
    return (
        f"# {source.name}\n\n{source.description}.\n\n- Upstream: {source.url}\n"
        f"- Licence: {source.license}\n- Read from: `{path}` on {date.today().isoformat()}\n"
        f"- Written by `fanyi data {source.name}`; the third column of each line names the "
        f"branch and file it came from.\n\nBranches read:\n\n{branches}\n"
    )

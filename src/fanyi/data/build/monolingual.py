"""Monolingual news for back-translation (Sennrich, Haddow & Birch 2016, "Improving Neural
Machine Translation Models with Monolingual Data").

``fanyi data news-mono [LOCAL] -o DIR`` collects English news sentences: the English sides of
the WMT news test sets of *other* language pairs (German, Czech, Russian, … ↔ English) from
2008 to 2018, as Helsinki-NLP/OPUS-MT-testsets keeps them. From 2019 on WMT gave every pair
out of English the same English source documents, the en→zh test sets included, so those years
are left out; the zh–en sets themselves are the ``wmt-news`` source. ``fanyi translate`` turns
``DIR/mono.en`` into Chinese, and ``fanyi data back-translated DIR -o OUT`` pairs the two into
``OUT/train.tsv``: synthetic Chinese sources for real English targets, a ``one_way`` corpus of
a data mix (docs/data.md). ``fanyi data forward-translated`` pairs them the other way round:
real English sources for synthetic Chinese targets, a corpus into Chinese only.
"""

from __future__ import annotations

import json
import os
import re
from datetime import date
from pathlib import Path

from .repository import Repository, clone
from .sources import default_branch, write_tsv

NEWS_REPOSITORY = "https://github.com/Helsinki-NLP/OPUS-MT-testsets"
NEWS_GLOB = "testsets/*/news*.eng"
LAST_YEAR = 2018  # from 2019 every en→X pair shares its English source with en→zh's tests
OWN_PAIRS = ("zho-eng", "eng-zho")  # the wmt-news source: parallel, dev and test
NEWS_TERMS = "WMT test sets: research use (WMT terms of use); cite the WMT findings"
MONO, ORIGIN, TRANSLATED = "mono.en", "mono.origin", "mono.zh"


def news_files(repo: Repository, commit: str) -> list[tuple[str, str]]:
    """(path, blob) of every English news test file of another pair, 2008-2018."""
    found = []
    for path, blob in repo.files(commit, NEWS_GLOB):
        year = re.search(r"(20\d\d)", path.rsplit("/", 1)[-1])
        pair = path.split("/")[1]
        if year and int(year.group(1)) <= LAST_YEAR and pair not in OWN_PAIRS:
            found.append((path, blob))
    return found


def read_news_english(repo: Repository, commit: str) -> tuple[list[tuple[str, str]], dict]:
    """(sentence, origin) of each distinct English sentence, in file order, and a report."""
    sentences: dict[str, str] = {}
    files = news_files(repo, commit)
    contents = repo.read([blob for _, blob in files])
    missing, lines = [], 0
    for (path, _), (_, data) in zip(files, contents, strict=True):
        if data is None:  # a snapshot leaves out its largest files
            missing.append(path)
            continue
        for n, line in enumerate(data.decode("utf-8").splitlines(), 1):
            text = " ".join(line.split())
            lines += bool(text)
            if text:
                sentences.setdefault(text, f"{path}:{n}")
    report = {"files": len(files) - len(missing), "lines": lines, "sentences": len(sentences)}
    return list(sentences.items()), report | {
        "duplicates": lines - len(sentences),
        "missing_files": missing,
    }


def build_news_mono(
    out: str | Path, local: str | Path | None = None, cache: Path | None = None
) -> int:
    """Write ``out/mono.en`` (one sentence a line), ``mono.origin`` (file:line of each),
    ``report.json`` and ``PROVENANCE.md`` from ``local`` or a clone; sentences written."""
    path = (
        Path(local) if local else clone(f"{NEWS_REPOSITORY}.git", Path(cache or ".") / "news.git")
    )
    repo = Repository(path)
    branch, commit = default_branch(repo, r"master|main")
    sentences, report = read_news_english(repo, commit)
    if not sentences:
        raise ValueError(f"{path}: no English news test file ({NEWS_GLOB}) up to {LAST_YEAR}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _write_lines(out / MONO, [s for s, _ in sentences])
    _write_lines(out / ORIGIN, [o for _, o in sentences])
    (out / "report.json").write_text(json.dumps({"source": "news-mono", **report}, indent=2) + "\n")
    (out / "PROVENANCE.md").write_text(
        f"# news-mono\n\nEnglish sides of the WMT news test sets of other language pairs, "
        f"2008-{LAST_YEAR}, for back-translation.\n\n- Upstream: {NEWS_REPOSITORY}\n"
        f"- Licence: {NEWS_TERMS}\n- Read from: `{path}` (`{branch}` at `{commit or 'unversioned'}`)"
        f" on {date.today().isoformat()}\n- `mono.origin` names the file and line of each "
        f"sentence.\n",
        encoding="utf-8",
    )
    return len(sentences)


USES = {  # how a translated corpus is used: its name, and what its provenance says
    "back": (
        "back-translated",
        "synthetic Chinese sources for real English targets. Use it as a `one_way` corpus into "
        "English only",
    ),
    "forward": (
        "forward-translated",
        "real English sources for synthetic Chinese targets (forward translation, or "
        "self-training: Zhang & Zong 2016). Use it as a `one_way` corpus into Chinese only",
    ),
}


def pair_translations(
    mono: str | Path,
    out: str | Path,
    translations: str | Path | None,
    model: str,
    use: str = "back",
) -> dict[str, int]:
    """Pair ``mono/mono.en`` with its Chinese translation (``translations``, default
    ``mono/mono.zh``) into ``out/train.tsv`` (English, Chinese, origin); empty translations are
    dropped. ``use`` (``USES``) says which side teaches: the real English as a target (back) or
    as a source (forward). Counts of pairs written and dropped."""
    name, role = USES[use]
    mono = Path(mono)
    english, origins = _read_lines(mono / MONO), _read_lines(mono / ORIGIN)
    chinese = _read_lines(Path(translations) if translations else mono / TRANSLATED)
    if not len(english) == len(origins) == len(chinese):
        raise ValueError(
            f"{mono}: {len(english)} sentences, {len(origins)} origins, {len(chinese)} translations"
        )
    rows = [
        (en, zh, f"{origin} {name} by {model}")
        for en, zh, origin in zip(english, chinese, origins, strict=True)
        if zh.strip()
    ]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_tsv(out / "train.tsv", rows)
    counts = {"pairs": len(rows), "empty_translation": len(english) - len(rows)}
    (out / "report.json").write_text(
        json.dumps({"source": name, "model": model, **counts}, indent=2) + "\n"
    )
    (out / "PROVENANCE.md").write_text(
        f"# {name}\n\n`{mono / MONO}` (see `{mono / 'PROVENANCE.md'}`) translated into "
        f"Chinese by `{model}`: {role}. Licence: that of the English text.\n",
        encoding="utf-8",
    )
    return counts


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1] if path.stat().st_size else []


def _write_lines(path: Path, lines: list[str]) -> None:
    """``lines`` into ``path`` through a temporary file (never half a file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as f:
        f.writelines(f"{line}\n" for line in lines)
    os.replace(tmp, path)

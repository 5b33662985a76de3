"""News and formal zh–en parallel text kept as plain files in public repositories:
the first 10,000 pairs of WMT's News Commentary (a course dataset's ``train_10k.jsonl``), the UN
Parallel Corpus v1.0 development set (Ziemski, Junczys-Dowmunt & Pouliquen 2016), and the WMT23
general test set, test only. Each reader returns what :mod:`fanyi.data.build.sources`' readers
return, and ``fanyi data NAME`` writes it the same way.
"""

from __future__ import annotations

import json

from .repository import Repository
from .sources import (
    HELD_OUT,
    Collected,
    Pair3,
    aligned_files,
    blob_lines,
    default_branch,
    one_line,
    read_test_sets,
    split_off,
)

NEWS_COMMENTARY = "data/train_10k.jsonl"  # {"en", "zh", "index"} a line
UN_DEV = "data/UNv1.0.devset.{}"
WMT23 = "txt/{}/generaltest2023.{}"
WMT23_TESTS = {  # file name: (label, English file, Chinese file); reference A, source-original
    "generaltest2023.zh-en": (
        "WMT23 general zh-en",
        WMT23.format("references", "zh-en.ref.refA.en"),
        WMT23.format("sources", "zh-en.src.zh"),
    ),
    "generaltest2023.en-zh": (
        "WMT23 general en-zh",
        WMT23.format("sources", "en-zh.src.en"),
        WMT23.format("references", "en-zh.ref.refA.zh"),
    ),
}


def read_news_commentary(repo: Repository, branches: str | None) -> Collected:
    """News Commentary's pairs of :data:`NEWS_COMMENTARY`, each kept once, dealt into train,
    dev and test without leakage (5% each)."""
    branch, commit = default_branch(repo, branches or r"main|master")
    blob = dict(repo.files(commit, NEWS_COMMENTARY)).get(NEWS_COMMENTARY)
    if blob is None:
        raise ValueError(f"{repo.path}: {NEWS_COMMENTARY} not found")
    unique: dict[tuple[str, str], Pair3] = {}
    lines, malformed = blob_lines(repo, blob, NEWS_COMMENTARY), 0
    for n, line in enumerate(lines, 1):
        row = _json_object(line)
        if row is None:  # a broken line costs only itself
            malformed += 1
            continue
        english, chinese = one_line(str(row.get("en", ""))), one_line(str(row.get("zh", "")))
        if english and chinese:
            label = f"News Commentary {NEWS_COMMENTARY}:{n}"
            unique.setdefault((english, chinese), (english, chinese, label))
    pairs = list(unique.values())
    held = min(HELD_OUT, len(pairs) // 20)
    collected = split_off(pairs, dev=held, test=held)
    report: dict[str, object] = {"lines": len(lines), "malformed_lines": malformed}
    collected.report = report | {"unique_pairs": len(pairs)}
    collected.branches = {branch: commit}
    return collected


def _json_object(line: str) -> dict | None:
    """The JSON object on ``line`` (an empty one for a blank line), or None if it is not one."""
    try:
        row = json.loads(line) if line.strip() else {}
    except json.JSONDecodeError:
        return None
    return row if isinstance(row, dict) else None


def read_un_dev(repo: Repository, branches: str | None) -> Collected:
    """The UN Parallel Corpus v1.0 development set (4,000 pairs), all of it for training."""
    branch, commit = default_branch(repo, branches or r"main|master")
    pattern = {lang: UN_DEV.format(lang) for lang in ("en", "zh")}
    pairs = list({p[:2]: p for p in aligned_files(repo, commit, pattern, "UNv1.0 dev")}.values())
    return Collected({"train": pairs}, {"unique_pairs": len(pairs)}, {branch: commit})


def read_wmt23(repo: Repository, branches: str | None) -> Collected:
    """The WMT23 general test sets zh-en and en-zh (:data:`WMT23_TESTS`); no train or dev."""
    return read_test_sets(repo, branches, WMT23_TESTS)

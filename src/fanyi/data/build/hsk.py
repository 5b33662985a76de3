"""The HSK graded sentences as a Tatoeba-style TSV: ``English<TAB>Chinese<TAB>attribution``.

4,354 Chinese sentences graded by HSK 3.0 level, each with an English translation, from the
PyPI package ``hsk-sentences-audio`` (dataset CC-BY-SA-4.0, https://github.com/no7z/
hsk-sentences-audio). Written in the column layout of Tatoeba's ``cmn.txt``, so a data config
reads it with the same ``columns`` (``extra_train``).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = "hsk-sentences-audio"
LICENSE = "CC-BY-SA-4.0"


def hsk_pairs() -> list[tuple[str, str, str]]:
    """(English, Chinese, attribution) of every sentence that has an English translation."""
    try:
        from hsk_sentences_audio import load_sentences
    except ImportError:
        raise ValueError(
            f"the HSK sentences need the package {PACKAGE}: pip install {PACKAGE}"
        ) from None
    rows = []
    for card in load_sentences():
        english = (card.get("translation") or {}).get("en", "").strip()
        chinese = card.get("chinese", "").strip()
        if english and chinese:
            rows.append((english, chinese, f"{PACKAGE} {card['id']} {LICENSE}"))
    return rows


def write_hsk_tsv(path: str | Path) -> int:
    """Write the HSK pairs to ``path`` (through a temporary file); return how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = hsk_pairs()
    tmp = path.with_name(path.name + ".tmp")
    text = "".join("\t".join(" ".join(field.split()) for field in row) + "\n" for row in rows)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return len(rows)

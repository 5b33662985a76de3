"""The HSK graded sentences as a Tatoeba-style TSV: ``English<TAB>Chinese<TAB>attribution``.

4,354 Chinese sentences graded by HSK 3.0 level, each with an English translation, from the
PyPI package ``hsk-sentences-audio`` (dataset CC-BY-SA-4.0, https://github.com/no7z/
hsk-sentences-audio). Written in the column layout of Tatoeba's ``cmn.txt``, so a data config
reads it with the same ``columns`` (``extra_train``).
"""

from __future__ import annotations

from pathlib import Path

from ...outputs import claim_file, write_file

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


def write_hsk_tsv(path: str | Path, overwrite: bool = False) -> int:
    """Write the HSK pairs to ``path`` (through a temporary file; an existing file replaced only
    with ``overwrite``); return how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path = claim_file(path, overwrite)
    rows = hsk_pairs()
    write_file(path, "".join("\t".join(" ".join(f.split()) for f in row) + "\n" for row in rows))
    return len(rows)

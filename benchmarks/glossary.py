"""A user's glossary of 100 terms on held-out text: of the terms the sources hold, how many the
translations hold, and whether every one they miss is reported (never dropped silently), with
BLEU and chrF without and with the glossary. Ends with one JSON line.

The glossary is built from CC-CEDICT (``fanyi/text/data/entries.tsv.gz``): the ``--terms`` nouns of
two characters or more (jieba's tag ``n…``) that the Chinese side of the held-out lines uses most,
each with its first sense that is no verb ("to …"), notes in brackets and a leading article left
out, as a documentation team writes its terms. Lines: the held-out python-docs pairs and the bundled
model's Tatoeba test slice (tests/fixtures/data), each way: into English the Chinese lines that hold
a term, into Chinese the English lines that hold a term's English.

Counts per direction: ``terms_found`` (a term found in a source, once a line), ``placed`` (the
translation holds its translation: a Latin one as whole words, case aside), ``reported`` (in the
translation's ``unplaced``), ``lost`` (neither: must be 0), ``placed_off`` (held without the
glossary, by the model alone), ``left_as_is`` (in a line the translator reads as written in the
target language already, and returns as it is: "asyncio.Future.result 和 … 参数。").

    python benchmarks/glossary.py [-m MODEL] [--terms 100] [--lines N] [--threads 1] [--dtype fp32]
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections import Counter
from pathlib import Path

from common import emit, machine, scored
from fanyi.runtime import set_threads
from fanyi.text.glossary import found_in
from fanyi.translate.translator import Translator

DATA = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "data"
ENTRIES = Path(__file__).resolve().parents[1] / "src" / "fanyi" / "text" / "data" / "entries.tsv.gz"
NOTE = re.compile(r"\s*\([^()]*\)\s*")
LATIN_TERM = r"[A-Za-z][A-Za-z' -]*[A-Za-z]"


def held_out_pairs() -> list[tuple[str, str]]:
    """(English, Chinese) of the held-out python-docs pairs and the Tatoeba test slice."""
    pairs = []
    for path in (DATA / "python-docs" / "test.tsv", DATA / "tatoeba-cmn-eng" / "bundled-test.txt"):
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t")
            if len(cells) >= 2 and cells[0].strip() and cells[1].strip():
                pairs.append((cells[0].strip(), cells[1].strip()))
    return pairs


def glossary(pairs: list[tuple[str, str]], size: int) -> list[tuple[str, str]]:
    """The ``size`` CC-CEDICT nouns the Chinese lines use most, with their first sense."""
    senses = {}
    for line in gzip.decompress(ENTRIES.read_bytes()).decode("utf-8").splitlines():
        cells = line.split("\t")
        if line.startswith("#") or len(cells) < 4 or not cells[3].startswith("n"):
            continue
        nouns = [NOTE.sub(" ", sense).strip() for sense in cells[1].split("|")]
        nouns = [re.sub(r"^(a|an|the) ", "", n) for n in nouns if not n.startswith("to ")]
        if len(cells[0]) >= 2 and nouns and re.fullmatch(LATIN_TERM, nouns[0]):
            senses[cells[0]] = nouns[0]
    counts = Counter(word for _, zh in pairs for word in senses if word in zh)
    return [(word, senses[word]) for word, _ in counts.most_common(size)]


def holds(translation: str, target: str) -> bool:
    """Whether ``translation`` writes ``target`` (a Latin term as whole words, case and a
    plural -s aside)."""
    if re.search(r"[A-Za-z]", target):
        words = re.escape(target).replace(r"\ ", r"[\s-]+")
        whole = rf"(?<![A-Za-z]){words}(?:s|es)?(?![A-Za-z])"  # or its plural
        return re.search(whole, translation, re.I) is not None
    return target.replace(" ", "") in translation.replace(" ", "")


def direction(translator, terms, pairs, to: str, limit: int | None = None) -> dict:
    """Counts and scores of one direction: the (first ``limit``) lines whose source holds a
    term."""
    oriented = sorted(terms if to == "en" else [(b, a) for a, b in terms], key=lambda p: -len(p[0]))
    rows = [(s, r, found) for s, r in pairs if (found := found_in(s, oriented))][:limit]
    sources, refs = [s for s, _, _ in rows], [r for _, r, _ in rows]
    off = translator.translate(sources, to=to)
    on = translator.translate(sources, to=to, glossary=terms)
    counts = Counter()
    for (source, _, found), before, after in zip(rows, off, on, strict=True):
        reported = set(after.unplaced)
        if after.text == source:  # read as written in ``to`` already: nothing to hold
            counts["left_as_is"] += len(found)
            continue
        for term, target in found:
            counts["terms_found"] += 1
            counts["placed_off"] += holds(before.text, target)
            if (term, target) in reported:
                counts["reported"] += 1
            elif holds(after.text, target):
                counts["placed"] += 1
            else:
                counts["lost"] += 1
    return {
        "lines": len(rows),
        **counts,
        "off": scored([r.text for r in off], refs, to),
        "on": scored([r.text for r in on], refs, to),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", "--model", default=None)
    parser.add_argument("--terms", type=int, default=100)
    parser.add_argument("--lines", type=int, default=None, help="at most this many each way")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dtype", default="fp32")
    args = parser.parse_args()
    set_threads(args.threads)
    translator = Translator.load(args.model, dtype=args.dtype)
    pairs = held_out_pairs()
    terms = glossary(pairs, args.terms)
    english, chinese = [(zh, en) for en, zh in pairs], pairs
    results = {
        to: direction(translator, terms, lines, to, args.lines)
        for to, lines in (("en", english), ("zh", chinese))
    }
    for to, r in results.items():
        print(
            f"into {to}: {r['lines']} lines, {r['terms_found']} terms found, {r['placed']} placed "
            f"({r.get('placed_off', 0)} without the glossary), {r.get('reported', 0)} reported, "
            f"{r.get('lost', 0)} lost, {r.get('left_as_is', 0)} in lines left as they are; "
            f"BLEU {r['off']['bleu']} -> {r['on']['bleu']}"
        )
    emit(
        {
            "benchmark": "glossary",
            "model": args.model,
            "dtype": args.dtype,
            "terms": len(terms),
            "results": results,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

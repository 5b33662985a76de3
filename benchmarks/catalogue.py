"""``fanyi po`` against translating a catalogue's text as it is written, markup and all.

Takes the held-out python-docs pairs of the bundled general model (tests/fixtures/data/
python-docs/test.tsv, less the ``seen.txt`` lines a stage trained on) that are whole catalogue
entries, finds each entry in the python-docs-zh-cn snapshot the fixture names (branch and file),
and translates its ``msgid`` into Chinese two ways: as written, reStructuredText markup read by
the model as text (what ``fanyi translate`` does with a line of a catalogue), and as ``fanyi
po`` does (read as the page shows it, the markup written back where the translation copies
what it showed: ``fanyi.catalogue.fill``). Scores each on the page's text (both sides rendered:
``markup.plain_text``) with sacreBLEU, and counts the source's inline markup spans that come
out as written (the reference translations' count for scale). Ends with one JSON line.

    python benchmarks/catalogue.py [-m MODEL] [--snapshot DIR] [--threads 2] [--dtype fp32]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polib

from common import emit, machine, read_lines
from decode_search import scored
from fanyi.catalogue import fill
from fanyi.data.build.repository import git
from fanyi.decode.translator import Translator
from fanyi.markup import plain_text, render
from fanyi.runtime import set_threads

FIXTURE = Path(__file__).resolve().parents[1] / "tests/fixtures/data/python-docs"
SNAPSHOT = "/work/.mirror/python+python-docs-zh-cn/repo"


def held_out_entries(snapshot: Path) -> list[polib.POEntry]:
    """The catalogue entries (as written in the snapshot) whose page text is the English side of
    a held-out fixture pair no stage trained on, each once."""
    seen = {int(n) for n in read_lines(str(FIXTURE / "seen.txt")) if n.strip().isdigit()}
    wanted: dict[str, set[str]] = {}  # "branch:path" → English sides
    for n, line in enumerate(read_lines(str(FIXTURE / "test.tsv")), 1):
        english, _, where = line.split("\t")
        if n not in seen:
            wanted.setdefault(where.split(" ", 1)[1], set()).add(english)
    found: dict[str, polib.POEntry] = {}
    for where, english in sorted(wanted.items()):
        text = git(snapshot, "show", where).decode("utf-8")
        for entry in polib.pofile(text, wrapwidth=0):
            shown = plain_text(entry.msgid)
            if not entry.obsolete and shown in english and shown not in found:
                found[shown] = entry
    return list(found.values())


def spans_as_written(sources: list[str], outputs: list[str]) -> int:
    """How many of the sources' inline markup spans their outputs hold as written."""
    total = 0
    for source, output in zip(sources, outputs, strict=True):
        for markup, _ in render(source).spans:
            total += output.count(markup) > 0
    return total


def both_ways(translator: Translator, entries: list[polib.POEntry]) -> dict:
    """Each way's scores on the page's text and spans as written, and the references'."""
    sources, refs = [e.msgid for e in entries], [plain_text(e.msgstr) for e in entries]
    as_written = translator(sources, to="zh")
    blank = polib.POFile(wrapwidth=0)
    for source in sources:
        blank.append(polib.POEntry(msgid=source, msgstr=""))
    report = fill(blank, translator, "zh")
    by_po = [entry.msgstr for entry in blank]
    result: dict = {"entries": len(entries), "spans": sum(len(render(s).spans) for s in sources)}
    result["reference_spans_as_written"] = spans_as_written(sources, [e.msgstr for e in entries])
    for name, outputs in (("as written", as_written), ("fanyi po", by_po)):
        figures = scored([plain_text(o) for o in outputs], refs, "zh")
        result[name] = {**figures, "spans_as_written": spans_as_written(sources, outputs)}
    result["fanyi po"]["report"] = report.to_dict()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-m", "--model", default=None, help="model (default: the bundled one)")
    parser.add_argument("--snapshot", default=SNAPSHOT, help="python-docs-zh-cn git directory")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dtype", default="fp32")
    args = parser.parse_args()
    set_threads(args.threads)
    translator = Translator.load(args.model, dtype=args.dtype)
    entries = held_out_entries(Path(args.snapshot))
    result = both_ways(translator, entries)
    print(f"| way | BLEU | chrF | spans as written (of {result['spans']}) |")
    print("| --- | ---: | ---: | ---: |")
    for name in ("as written", "fanyi po"):
        r = result[name]
        print(f"| {name} | {r['bleu']} | {r['chrf']} | {r['spans_as_written']} |")
    print(f"| reference | | | {result['reference_spans_as_written']} |")
    emit(
        {
            "benchmark": "catalogue",
            "model": args.model,
            "dtype": args.dtype,
            **result,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

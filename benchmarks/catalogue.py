"""``fanyi po`` against translating a catalogue's entries as lines (``fanyi translate``).

Takes the held-out python-docs pairs of the bundled general model (tests/fixtures/data/
python-docs/test.tsv, less the ``seen.txt`` lines a stage trained on) that are whole catalogue
entries, finds each entry in the python-docs-zh-cn snapshot the fixture names (branch and file),
and translates its ``msgid``, reStructuredText markup and all, into Chinese two ways: as a line
of ``fanyi translate``, and as ``fanyi po`` does (``fanyi.catalogue.fill``: the same
translation made valid reST by ``markup.mend``). Scores each on the page's text (both sides
rendered: ``markup.plain_text``) with sacreBLEU, and counts the source's inline markup spans
that come out as written, those of them set apart as reST needs (not glued to a letter, digit
or Han character, else the page shows the raw markup), the literal blocks (``::``) kept, and
the role names left without their content (":term:word", shown raw on the page);
the reference translations' counts for scale. Ends with one JSON line.

    python benchmarks/catalogue.py [-m MODEL] [--snapshot DIR] [--threads 2] [--dtype fp32]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import polib

import real_text
from common import emit, machine, read_lines, scored
from fanyi.catalogue import fill
from fanyi.data.build.repository import git
from fanyi.runtime import set_threads
from fanyi.text.lang import HAN
from fanyi.text.markup import ROLE_NAME, plain_text, render
from fanyi.translate.translator import Translator

FIXTURE = Path(__file__).resolve().parents[1] / "tests/fixtures/data/python-docs"
SNAPSHOT = "/work/.mirror/python+python-docs-zh-cn/repo"


def held_out_entries(snapshot: Path) -> tuple[list[polib.POEntry], list[str]]:
    """The catalogue entries (as written in the snapshot) whose page text is the English side of
    a held-out fixture pair no stage trained on, each once; and the files the snapshot lacks
    (a snapshot may leave out its largest)."""
    seen = real_text.seen(FIXTURE / "test.tsv")
    wanted: dict[str, set[str]] = {}  # "branch:path" → English sides
    for n, line in enumerate(read_lines(str(FIXTURE / "test.tsv")), 1):
        english, _, where = line.split("\t")
        if n not in seen:
            wanted.setdefault(where.split(" ", 1)[1], set()).add(english)
    found: dict[str, polib.POEntry] = {}
    missing = []
    for where, english in sorted(wanted.items()):
        try:
            text = git(snapshot, "show", where).decode("utf-8")
        except ValueError:  # git's "path … does not exist"
            missing.append(where)
            continue
        for entry in polib.pofile(text, wrapwidth=0):
            shown = plain_text(entry.msgid)
            if not entry.obsolete and shown in english and shown not in found:
                found[shown] = entry
    return list(found.values()), missing


def counted(sources: list[str], outputs: list[str]) -> dict[str, int]:
    """The sources' inline markup spans the outputs hold as written, those set apart, the
    literal blocks kept, and the role names left without content (":term:word": shown raw)."""
    counts = {"spans_as_written": 0, "spans_set_apart": 0, "literal_blocks": 0, "roles_broken": 0}
    for source, output in zip(sources, outputs, strict=True):
        rendered = render(source)
        names = set(ROLE_NAME.findall(source))
        counts["roles_broken"] += sum(
            len(re.findall(re.escape(n) + "(?!`)", output)) for n in names
        )
        for markup, _ in rendered.spans:
            counts["spans_as_written"] += markup in output
            apart = rf"(?<![\w{HAN}]){re.escape(markup)}(?![\w{HAN}])"
            counts["spans_set_apart"] += re.search(apart, output) is not None
        counts["literal_blocks"] += rendered.literal_block and output.rstrip().endswith("::")
    return counts


def both_ways(translator: Translator, entries: list[polib.POEntry]) -> dict:
    """Each way's scores on the page's text and markup counts, and the references' counts."""
    sources, refs = [e.msgid for e in entries], [plain_text(e.msgstr) for e in entries]
    as_lines = translator(sources, to="zh")
    blank = polib.POFile(wrapwidth=0)
    for source in sources:
        blank.append(polib.POEntry(msgid=source, msgstr=""))
    report = fill(blank, translator, "zh")
    rendered = [render(s) for s in sources]
    result: dict = {
        "entries": len(entries),
        "spans": sum(len(r.spans) for r in rendered),
        "literal_blocks": sum(r.literal_block for r in rendered),
        "reference": counted(sources, [e.msgstr for e in entries]),
    }
    for name, outputs in (("fanyi translate", as_lines), ("fanyi po", [e.msgstr for e in blank])):
        figures = scored([plain_text(o) for o in outputs], refs, "zh")
        result[name] = {**figures, **counted(sources, outputs)}
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
    entries, missing = held_out_entries(Path(args.snapshot))
    result = {**both_ways(translator, entries), "missing_files": missing}
    print(
        f"| way | BLEU | chrF | spans as written / set apart (of {result['spans']}) "
        f"| literal blocks (of {result['literal_blocks']}) | roles broken |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: |"
    )
    for name in ("fanyi translate", "fanyi po", "reference"):
        r = result[name]
        spans = f"{r['spans_as_written']} / {r['spans_set_apart']}"
        print(
            f"| {name} | {r.get('bleu', '')} | {r.get('chrf', '')} | {spans} "
            f"| {r['literal_blocks']} | {r['roles_broken']} |"
        )
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

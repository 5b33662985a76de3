"""Names off and on: how many of the sources' names a translation writes as the other language
writes them (``hold_names`` off, then on), with BLEU and chrF beside it, on the held-out real
text the project ships and on the everyday phrase set.

    python benchmarks/names.py [-m MODEL] [--lines N] [--split test|dev] [--to en|zh]
                               [--sets tatoeba,python-docs,phrases,real] [--real-lines 100]
                               [--sources data/sources] [--threads 1] [--dtype fp32]

Sets (tests/fixtures/data, none needs ``fanyi data``), each way:

- the Tatoeba test pairs of the bundled models (``tatoeba-cmn-eng/bundled-test.txt``) and
  python-docs' held-out test pairs (``python-docs/test.tsv``, less the lines of ``seen.txt``):
  the lines whose source holds a name, as ``hold_names`` finds them (CC-CEDICT's proper nouns
  and set phrases, Chinese persons' names), the first ``--lines`` of them;
- the everyday phrase set (``phrases/test.tsv``; ``--split dev`` to choose on): every line that
  is scored that way, the first ``--lines`` of them;
- ``real``: the first ``--real-lines`` lines of real text as ``fanyi data`` wrote it under
  ``--sources`` (a line of each set in turn, as ``shipped.py`` deals them), names or not, to see
  what holding does to running text: with ``--split dev`` newstest2017 and 3AM dev, else the
  held-out newstest2020, FLORES-200 devtest, TICO-19 test and 3AM test.

Counts: ``changed`` the lines whose translation differs off and on, ``names`` the names found in the
sources, ``reference_names`` those the references write as the feature does, ``names_rendered``
those the translation writes so (whole words). On the phrase set, ``correct``: lines whose
translation holds every item the set asks for, in one of its accepted forms (a Latin form
case-insensitively as whole words, punctuation aside; a Chinese one as written;
``phrases/README.md``), overall and by part. Sources and references are normalised as the model's
training data (NFKC, Traditional → Simplified). Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import itertools
import re
import time
from dataclasses import dataclass
from pathlib import Path

from common import emit, machine, read_lines, scored
from fanyi.text.lang import Normalizer
from fanyi.text.names import names_to_hold
from fanyi.text.numerals import LATIN_LETTER, whole
from fanyi.text.transform import ALTERNATIVES

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "data"
TATOEBA = FIXTURES / "tatoeba-cmn-eng" / "bundled-test.txt"
PYTHON_DOCS = FIXTURES / "python-docs" / "test.tsv"
SEEN = FIXTURES / "python-docs" / "seen.txt"
PHRASES = FIXTURES / "phrases"
WAYS = {"off": {"hold_names": False}, "on": {"hold_names": True}}
REAL_NAMES = {"dev": "newstest2017 + 3AM dev", "test": "newstest2020, FLORES, TICO-19 + 3AM test"}
SOURCE_OF = {"en": "zh", "zh": "en"}


@dataclass(frozen=True)
class Line:
    """One line to translate: its source, reference, the items a right translation holds (the
    phrase set's; empty elsewhere) and its part of the set."""

    source: str
    reference: str
    items: str = ""
    part: str = ""


def normalised(text: str, lang: str) -> str:
    return Normalizer(lang)(text)


LOWERCASE: set[str] = set()  # the model's truecasing table (``hold_names`` reads it), once loaded


def names_of(line: Line, to: str) -> list[tuple[str, str]]:
    """The (name, what the target writes) pairs ``hold_names`` finds in the line's source."""
    return names_to_hold(line.source, SOURCE_OF[to], LOWERCASE)


def seen() -> set[int]:
    """The line numbers of python-docs' test.tsv a stage of the bundled model trained on."""
    text = [line for line in read_lines(str(SEEN)) if not line.startswith("#")]
    return {int(word) for line in text for word in line.split()}


def real_text(path: Path, to: str, lines: int, left_out: set[int] = frozenset()) -> list[Line]:
    """The pairs of an English<TAB>Chinese<TAB>… file into ``to`` whose source holds a name."""
    found = []
    for number, row in enumerate(read_lines(str(path)), 1):
        en, zh, *_ = row.split("\t")
        source, reference = (zh, en) if to == "en" else (en, zh)
        line = Line(normalised(source, SOURCE_OF[to]), normalised(reference, to))
        if number not in left_out and names_of(line, to):
            found.append(line)
    return found[: lines or None]


def real_sets(sources: Path, split: str) -> list[dict[str, list[tuple[str, str]]]]:
    """The real-text sets of ``split`` as ``fanyi data`` wrote them (pairs by target): dev
    newstest2017 and 3AM; test newstest2020 (each direction's own), FLORES-200 devtest, TICO-19
    and 3AM, the sets ``shipped.py`` scores."""
    import real_text

    if split == "dev":
        return [real_text.both_ways(sources / f / "dev.tsv") for f in ("wmt-news", "3am")]
    wider = [
        real_text.both_ways(sources / real_text.WIDER / f"{n}.tsv") for n in real_text.WIDER_BOTH
    ]
    news = real_text.news(sources / "wmt-news", "newstest2020")
    return [news, *wider, real_text.both_ways(sources / "3am" / "test.tsv")]


def real_lines(sources: Path, to: str, lines: int, split: str = "dev") -> list[Line]:
    """The first ``lines`` lines into ``to`` of ``split``'s real-text sets, a line of each in
    turn, whether their source names something or not (none where the files are missing)."""
    pairs = [found.get(to, []) for found in real_sets(sources, split)]
    turns = itertools.chain.from_iterable(itertools.zip_longest(*pairs))
    rows = [row for row in turns if row and row[0].strip() and row[0].splitlines() == [row[0]]]
    source = SOURCE_OF[to]
    return [Line(normalised(s, source), normalised(r, to)) for s, r in rows[: lines or None]]


def phrases(path: Path, to: str, lines: int) -> list[Line]:
    """The phrase set's lines scored into ``to`` (those with items for it)."""
    found = []
    for row in read_lines(str(path)):
        if row.startswith("#"):
            continue
        en, zh, into_en, into_zh, part, _ = row.split("\t")
        items = into_en if to == "en" else into_zh
        if items:
            source, reference = (zh, en) if to == "en" else (en, zh)
            found.append(Line(normalised(source, SOURCE_OF[to]), reference, items, part))
    return found[: lines or None]


PUNCTUATION = re.compile(r"[,;:!?.\"“”()]")
DASH = re.compile(r"[-\u2013\u2014]")


def plain(text: str) -> str:
    """``text`` with punctuation left out, dashes as spaces, curly apostrophes straight."""
    text = DASH.sub(" ", PUNCTUATION.sub("", text.replace("\u2019", "'")))
    return " ".join(text.split())


def holds_form(form: str, translation: str) -> bool:
    """Whether ``translation`` writes ``form``: with a Latin letter, case-insensitively as whole
    words, punctuation aside ("Long time, no see" holds "long time no see"); else as written,
    spaces aside."""
    if re.search(f"[{LATIN_LETTER}]", form):
        bounded = f"(?<![{LATIN_LETTER}]){re.escape(plain(form))}(?![{LATIN_LETTER}])"
        return re.search(bounded, plain(translation), re.IGNORECASE) is not None
    return form in re.sub(r"\s+", "", translation)


def correct(translation: str, items: str) -> bool:
    """Whether ``translation`` holds every item ("; " between items), each in one of its forms
    ("|" between forms)."""
    return all(
        any(holds_form(form, translation) for form in item.split("|")) for item in items.split("; ")
    )


def renders(target: str, text: str) -> bool:
    """Whether ``text`` writes ``target`` (one of its forms, for a line held to a dictionary
    entry's senses) as whole words."""
    return any(whole(form, text) for form in target.split(ALTERNATIVES))


def rendered(lines: list[Line], texts: list[str], to: str) -> int:
    """How many of the sources' names ``texts`` write as the target writes them."""
    return sum(
        renders(target, text)
        for line, text in zip(lines, texts, strict=True)
        for _, target in names_of(line, to)
    )


def counts(lines: list[Line], texts: list[str], to: str) -> dict:
    """A way's counts: names rendered, and on the phrase set the lines correct, by part."""
    found: dict = {"names_rendered": rendered(lines, texts, to)}
    if lines and lines[0].items:
        right = [correct(text, line.items) for line, text in zip(lines, texts, strict=True)]
        found["correct"] = sum(right)
        found["correct_by_part"] = {
            part: sum(r for r, line in zip(right, lines, strict=True) if line.part == part)
            for part in dict.fromkeys(line.part for line in lines)
        }
    return found


def each_way(translator, lines: list[Line], to: str) -> dict:
    """The lines translated with ``hold_names`` off and on: scores, counts and seconds."""
    result: dict = {
        "lines": len(lines),
        "names": sum(len(names_of(line, to)) for line in lines),
        "reference_names": sum(
            renders(target, line.reference) for line in lines for _, target in names_of(line, to)
        ),
    }
    if lines and lines[0].items:
        result["lines_by_part"] = {
            part: sum(line.part == part for line in lines)
            for part in dict.fromkeys(line.part for line in lines)
        }
    if not lines:
        return result
    sources, references = [line.source for line in lines], [line.reference for line in lines]
    written = {}
    for name, options in WAYS.items():
        start = time.perf_counter()
        written[name] = texts = translator(sources, to=to, **options)
        seconds = round(time.perf_counter() - start, 2)
        result[name] = scored(texts, references, to) | counts(lines, texts, to)
        result[name]["seconds"] = seconds
    result["changed"] = sum(a != b for a, b in zip(*written.values(), strict=True))
    return result


def sets(args: argparse.Namespace) -> dict:
    """Each set's key → its name and a reader of its lines into a target."""
    left_out, lines, split = seen(), args.lines, args.split
    return {
        "tatoeba": ("Tatoeba test", lambda to: real_text(TATOEBA, to, lines)),
        "python-docs": ("python-docs test", lambda to: real_text(PYTHON_DOCS, to, lines, left_out)),
        "phrases": (f"phrases {split}", lambda to: phrases(PHRASES / f"{split}.tsv", to, lines)),
        "real": (
            REAL_NAMES[split],
            lambda to: real_lines(Path(args.sources), to, args.real_lines, split),
        ),
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", "--model", default=None, help="model (default: the bundled one)")
    parser.add_argument("--lines", type=int, default=0, help="first N lines a set (0: all)")
    parser.add_argument("--split", choices=["test", "dev"], default="test", help="phrase set split")
    parser.add_argument("--to", choices=["en", "zh"], help="one direction (default: both)")
    parser.add_argument(
        "--sets",
        default="tatoeba,python-docs,phrases",
        help="some of tatoeba,python-docs,phrases,real (real: news, captions; --split's)",
    )
    parser.add_argument(
        "--real-lines", type=int, default=100, help="lines of the real set (0: all)"
    )
    parser.add_argument("--sources", default="data/sources", help="where fanyi data wrote")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dtype", default="fp32", help="fp32 (default: every host alike), auto …")
    args = parser.parse_args()
    if unknown := set(args.sets.split(",")) - {"tatoeba", "python-docs", "phrases", "real"}:
        parser.error(f"--sets: no set {', '.join(sorted(unknown))}")
    return args


def main() -> None:
    args = parse_args()
    from fanyi.runtime import set_threads
    from fanyi.translate.translator import Translator

    set_threads(args.threads)
    translator = Translator.load(args.model, dtype=args.dtype)
    LOWERCASE.update(translator.text.lowercase)
    results: dict = {}
    chosen = sets(args)
    for key in args.sets.split(","):
        name, read = chosen[key]
        for to in ("en", "zh"):
            if args.to in (None, to):
                key = f"{name} {'zh→en' if to == 'en' else 'en→zh'}"
                results[key] = each_way(translator, read(to), to)
                print(key, results[key], flush=True)
    settings = {
        "lines": args.lines,
        "split": args.split,
        "sets": args.sets,
        "real_lines": args.real_lines,
        "threads": args.threads,
    }
    emit(
        {
            "benchmark": "names",
            "model": args.model,
            "dtype": args.dtype,
            **settings,
            "results": results,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

"""Web and e-mail addresses, translated with and without holding the translation to them
(``keep_links``: a source whose translation misses one is searched again, held to its links).

Every held-out line whose source holds a link that its reference copies as written: dev
(python-docs and django-docs dev, both ways: choose on these) and test (their test splits, both
ways; the WMT and TICO-19 test sets, their own way). Each set is translated with ``keep_links``
off and on and scored (BLEU, chrF, length ratio; sacreBLEU, tok:zh into Chinese), with the count
of links the translation copies as written and the seconds it took. Ends with one JSON line.

    python benchmarks/links.py [-m MODEL] [--sources data/sources] [--threads 2] [--dtype fp32]
"""

from __future__ import annotations

import time
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.links import links
from fanyi.translate.translator import Translator

BOTH = ("zh", "en")
SETS = {  # file of English<TAB>Chinese lines: the targets it is read into
    "dev": {"python-docs/dev.tsv": BOTH, "django-docs/dev.tsv": BOTH},
    "test": {
        "python-docs/test.tsv": BOTH,
        "django-docs/test.tsv": BOTH,
        "wider-tests/tico19-test.tsv": ("zh",),
        "wider-tests/generaltest2022.zh-en.tsv": ("en",),
        "wmt23/generaltest2023.en-zh.tsv": ("zh",),
        "wmt-news/newstest2020.zh-en.tsv": ("en",),
        "wmt-news/newstest2021.zh-en.tsv": ("en",),
    },
}


def copied(source: str, translation: str) -> list[str]:
    """The links of ``source`` that ``translation`` holds as written."""
    return [link for link in links(source) if link in translation]


def linked(path: Path, to: str) -> tuple[list[str], list[str]]:
    """Sources and references into ``to`` of the lines whose reference copies a link of the
    source."""
    pairs = [line.split("\t")[:2] for line in read_lines(str(path))]
    chosen = [(zh, en) if to == "en" else (en, zh) for en, zh in pairs]
    kept = [(source, ref) for source, ref in chosen if copied(source, ref)]
    return [s for s, _ in kept], [r for _, r in kept]


def score_both(translator: Translator, sources: list[str], refs: list[str], to: str) -> dict:
    """The lines' scores into ``to`` with ``keep_links`` off and on, and the links copied."""
    result: dict = {
        "lines": len(sources),
        "links": sum(len(copied(s, r)) for s, r in zip(sources, refs, strict=True)),
    }
    for key, keep in (("off", False), ("on", True)):
        start = time.perf_counter()
        out = translator(sources, to=to, keep_links=keep)
        seconds = round(time.perf_counter() - start, 2)
        kept = sum(len(copied(s, t)) for s, t in zip(sources, out, strict=True))
        result[key] = scored(out, refs, to) | {"links_copied": kept, "seconds": seconds}
    return result


def main() -> None:
    args = off_and_on_parser(__doc__.splitlines()[0]).parse_args()
    translator = off_and_on_translator(args)
    results: dict = {}
    for split, files in SETS.items():
        for name, targets in files.items():
            path = Path(args.sources) / name
            for to in targets:
                key = f"{split} {name} {'en→zh' if to == 'zh' else 'zh→en'}"
                lines = linked(path, to) if path.is_file() else ([], [])
                results[key] = score_both(translator, *lines, to) if lines[0] else "none"
                print(key, results[key], flush=True)
    emit_off_and_on("links", args, results)


if __name__ == "__main__":
    main()

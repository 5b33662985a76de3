"""Headlines in Title Case (and lines in capitals), translated with and without reading them in
sentence case.

Takes the English sources in Title Case or in capitals (``recase.recasable``) of the WMT en→zh
sets that ``fanyi data wmt-news`` wrote: newstest2017 (its dev split, ``dev.tsv``: choose on this one),
newstest2019 and newstest2020 (test), and scores each set's lines translated into Chinese with
``recase_headlines`` off and on: BLEU, chrF, length ratio (sacreBLEU, tok:zh) and the English
words left in the output. Ends with one JSON line.

    python benchmarks/headlines.py [-m MODEL] [--sources data/sources] [--threads 2] [--dtype fp32]
"""

from __future__ import annotations

import re
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.recase import recasable
from fanyi.translate.translator import Translator

SETS = {
    "newstest2017 (dev)": "dev.tsv",
    **{f"newstest{y}": f"newstest{y}.en-zh.tsv" for y in (2019, 2020)},
}
ENGLISH_WORD = re.compile(r"[A-Za-z]+")


def headlines(path: Path) -> list[tuple[str, str]]:
    """(English, Chinese) of the lines of an English<TAB>Chinese<TAB>… file whose English is in
    Title Case or in capitals."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    return [(en, zh) for en, zh, *_ in rows if recasable(en)]


def score_both(translator: Translator, pairs: list[tuple[str, str]]) -> dict:
    """The lines' scores with recasing off and on, and the English words in each output."""
    sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    result: dict = {"lines": len(pairs)}
    for key, recase in (("as_written", False), ("sentence_case", True)):
        hypotheses = translator(sources, to="zh", recase_headlines=recase)
        english = sum(len(ENGLISH_WORD.findall(h)) for h in hypotheses)
        result[key] = scored(hypotheses, refs, "zh") | {"english_words": english}
    return result


def main() -> None:
    parser = off_and_on_parser(__doc__.splitlines()[0])
    args = parser.parse_args()
    translator = off_and_on_translator(args)
    results = {}
    for name, file in SETS.items():
        path = Path(args.sources) / "wmt-news" / file
        results[name] = score_both(translator, headlines(path)) if path.is_file() else "missing"
        print(name, results[name], flush=True)
    emit_off_and_on("headlines", args, results)


if __name__ == "__main__":
    main()

"""Numbers in groups of three digits ("1,400,000"), translated with and without reading them as
plain digits (``keep_numbers``).

Takes the lines of the WMT sets that ``fanyi data wmt-news`` wrote whose source holds such a
number: newstest2017 (its dev split, ``dev.tsv``, both directions: choose on this one),
newstest2019 and newstest2020 (test), each direction. Scores each set's lines with
``keep_numbers`` off and on: BLEU, chrF, length ratio (sacreBLEU; tok:zh into Chinese), and counts
the source's grouped numbers whose digits the translation keeps (as written, or without the
commas). Ends with one JSON line.

    python benchmarks/digit_groups.py [-m MODEL] [--sources data/sources] [--threads 2]
                                      [--dtype fp32]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import emit, machine, read_lines
from decode_search import scored
from fanyi.decode.translator import Translator
from fanyi.digit_groups import grouped_numbers
from fanyi.runtime import set_threads

SETS = {  # (file, direction); dev.tsv holds newstest2017 English<TAB>Chinese, read both ways
    "newstest2017 (dev) en→zh": ("dev.tsv", "zh"),
    "newstest2017 (dev) zh→en": ("dev.tsv", "en"),
    **{f"newstest{y} en→zh": (f"newstest{y}.en-zh.tsv", "zh") for y in (2019, 2020)},
    **{f"newstest{y} zh→en": (f"newstest{y}.zh-en.tsv", "en") for y in (2019, 2020)},
}


def with_numbers(path: Path, to: str) -> list[tuple[str, str]]:
    """(source, reference) of the lines of an English<TAB>Chinese<TAB>… file whose source (the
    side not in ``to``) holds a number in groups of three digits."""
    rows = [line.split("\t") for line in read_lines(str(path))]
    pairs = [(en, zh) if to == "zh" else (zh, en) for en, zh, *_ in rows]
    return [(source, ref) for source, ref in pairs if grouped_numbers(source)]


def kept(source: str, translation: str) -> int:
    """How many of ``source``'s grouped numbers ``translation`` holds, as written or plain."""
    return sum(
        n in translation or n.replace(",", "") in translation for n in grouped_numbers(source)
    )


def score_both(translator: Translator, pairs: list[tuple[str, str]], to: str) -> dict:
    """The lines' scores with ``keep_numbers`` off and on, and the numbers each keeps."""
    sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    total = sum(len(grouped_numbers(s)) for s in sources)
    result: dict = {"lines": len(pairs), "numbers": total}
    if not pairs:  # newstest2020's Chinese writes none
        return result
    for key, keep in (("as_written", False), ("plain_digits", True)):
        hypotheses = translator(sources, to=to, keep_numbers=keep)
        numbers = sum(kept(s, h) for s, h in zip(sources, hypotheses, strict=True))
        result[key] = scored(hypotheses, refs, to) | {"numbers_kept": numbers}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", "--model", default=None, help="model (default: the bundled one)")
    parser.add_argument("--sources", default="data/sources", help="fanyi data's output folder")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dtype", default="fp32", help="fp32 (default), auto …")
    args = parser.parse_args()
    set_threads(args.threads)
    translator = Translator.load(args.model, dtype=args.dtype)
    results = {}
    for name, (file, to) in SETS.items():
        path = Path(args.sources) / "wmt-news" / file
        found = score_both(translator, with_numbers(path, to), to) if path.is_file() else "missing"
        results[name] = found
        print(name, found, flush=True)
    emit(
        {
            "benchmark": "digit_groups",
            "model": args.model,
            "dtype": args.dtype,
            "results": results,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()

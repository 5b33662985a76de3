"""Write a tuning directory whose dev split mixes every source's dev set, for ``fanyi tune``.

A general model's length penalty and reranking weight must suit all its domains, not only the
Tatoeba dev split that validation reads: this takes the first N pairs of each direction from a
prepared bidirectional data directory's dev split and from each source's own dev file (the
``dev.tsv`` that ``fanyi data`` wrote: python-docs, django-docs, 3AM, WMT newstest2017), cleaned
as ``fanyi prepare`` cleans them, and writes them as the dev split of OUT beside a copy of the
data directory's manifest (so that ``fanyi tune --data OUT`` reads it as it reads DATA):

    python scripts/mixed_dev.py --data data/real-zh-en-everyday --sources data/sources \\
        -o data/real-zh-en-devmix [--per-source 150] [--source-names django-docs,3am,...]
    fanyi tune -m MODEL --data data/real-zh-en-devmix --per-target --rerank-weights 0,0.2

Dev sets only: the test splits stay unseen. OUT must be new or empty, or one this script wrote
(``--overwrite``): it never replaces a prepared data directory's dev split.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from fanyi.data.manifest import read_manifest, read_pairs
from fanyi.text.lang import Normalizer, lang_tag

SOURCES = ("python-docs", "django-docs", "3am", "wmt-news")
WRITES = {"manifest.json", "dev.src", "dev.tgt"}  # all this script writes into OUT


def source_pairs(path: Path, to: str, count: int, clean: dict[str, Normalizer]):
    """The first ``count`` (source, reference) pairs of an English<TAB>Chinese<TAB>… file."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()][:count]
    pairs = [(clean["zh"](zh), clean["en"](en)) for en, zh, *_ in rows]
    return [(s, r) if to == "en" else (r, s) for s, r in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="prepared data directory")
    parser.add_argument("--sources", type=Path, default=Path("data/sources"))
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--per-source", type=int, default=150, help="pairs per source and way")
    parser.add_argument(
        "--source-names",
        default=",".join(SOURCES),
        help=f"the sources whose dev.tsv joins the mix (default {','.join(SOURCES)})",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace what this wrote there")
    args = parser.parse_args()
    present = {p.name for p in args.output.iterdir()} if args.output.is_dir() else set()
    if present and not (args.overwrite and present <= WRITES):
        parser.error(f"{args.output} is not empty (--overwrite replaces only a mixed dev set)")
    config = read_manifest(args.data).config
    clean = {lang: Normalizer(lang, config.nfkc, config.t2s) for lang in ("en", "zh")}
    lines: list[tuple[str, str]] = []
    for to in ("en", "zh"):
        own = read_pairs(args.data, "dev", to, args.per_source)
        lines += [
            (f"{lang_tag(to)} {s}", r) for s, r in zip(own.sources, own.references, strict=True)
        ]
        for name in args.source_names.split(","):
            pairs = source_pairs(args.sources / name / "dev.tsv", to, args.per_source, clean)
            lines += [(f"{lang_tag(to)} {s}", r) for s, r in pairs]
    args.output.mkdir(parents=True, exist_ok=True)
    shutil.copy(args.data / "manifest.json", args.output / "manifest.json")
    for side, index in (("src", 0), ("tgt", 1)):
        text = "".join(f"{pair[index]}\n" for pair in lines)
        (args.output / f"dev.{side}").write_text(text, encoding="utf-8")
    print(f"wrote {len(lines)} dev pairs to {args.output}")


if __name__ == "__main__":
    main()

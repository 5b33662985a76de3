"""``fanyi export [-m] MODEL --format ctranslate2|huggingface -o OUT``: a fanyi model directory
→ CTranslate2 (``fanyi translate --engine ctranslate2 -m OUT``, the fastest CPU path) or Hugging
Face (``transformers`` loads it and ``generate``s with it).

MODEL, given as ``-m MODEL`` like every command's or as the first argument, is a model directory
or a bundled model's name; it defaults to the bundled model, ``zh-en-general``. Of an ensemble,
such as the Tatoeba ensemble ``zh-en``, the export takes its first member (both engines decode
one model; name ``…/bundled/zh-en/member-2`` for the other). Hugging Face: a post-norm model
becomes MarianMT, a pre-norm one (the bundled ``zh-en-general``) Pegasus, both with
MarianTokenizer's files; CTranslate2 takes either.

``--dtype`` applies to CTranslate2 (int8 stores the linear maps in 8 bits, about a quarter of
the size). ``--to`` and ``--quantization`` (CTranslate2's names) are the old spellings of
``--format`` and ``--dtype``: they still work, with a warning, until the next release.
"""

from __future__ import annotations

import argparse
import sys

from ..interop.ct2_dtypes import DTYPES
from ..outputs import OVERWRITE_HELP, claim_dir
from ..translate.model_names import resolve_model_dir
from .flags import deprecated, switch

FORMATS = ("ctranslate2", "huggingface")
FANYI_DTYPES = {theirs: ours for ours, theirs in DTYPES.items()}  # --quantization's values


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="a model as CTranslate2 or Hugging Face (MarianMT, Pegasus)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "model",
        nargs="?",
        metavar="MODEL",
        help="model directory or bundled name, as -m gives it",
    )
    parser.add_argument(
        "-m",
        "--model",
        dest="model_option",
        metavar="DIR",
        help="model directory or bundled name (default: zh-en-general; of an ensemble, its "
        "first member)",
    )
    parser.add_argument("--format", choices=FORMATS, help="ctranslate2 or huggingface (required)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write")
    switch(parser, "--overwrite", OVERWRITE_HELP)
    parser.add_argument(
        "--dtype",
        default="fp32",
        choices=DTYPES,
        help="CTranslate2's weight type (default fp32; int8: about a quarter of the size)",
    )
    deprecated(parser, "--to", "--format", "format", choices=FORMATS)
    deprecated(
        parser,
        "--quantization",
        "--dtype",
        "dtype",
        convert=FANYI_DTYPES.__getitem__,
        choices=list(FANYI_DTYPES),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.format is None:
        raise ValueError(f"give --format: {' or '.join(FORMATS)}")
    from ..ensemble_dir import first_member
    from ..interop.export_ct2 import export_ctranslate2
    from ..interop.export_hf import export_huggingface
    from ..model_dir import read_checkpoint
    from ..translate.config import model_decode_config

    if args.model and args.model_option and args.model != args.model_option:
        raise ValueError(f"two models given: {args.model} and -m {args.model_option}")
    claim_dir(args.output, args.overwrite)  # before the model is loaded
    named = resolve_model_dir(args.model or args.model_option)
    model = first_member(named)
    if model != named and (args.model or args.model_option):
        print(
            f"fanyi export: {named} is an ensemble: exporting its first member, {model}",
            file=sys.stderr,
        )
    if args.format == "ctranslate2":
        print(export_ctranslate2(model, args.output, DTYPES[args.dtype], args.overwrite))
    else:
        if args.dtype != "fp32":
            raise ValueError("--dtype applies to --format ctranslate2 only")
        beam = model_decode_config(read_checkpoint(model)).search.beam
        print(export_huggingface(model, args.output, beam, args.overwrite))
    return 0

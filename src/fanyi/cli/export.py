"""``fanyi export``: a fanyi model directory → CTranslate2 (``fanyi translate --engine
ctranslate2 -m OUT``, the fastest CPU path) or Hugging Face MarianMT (``transformers`` loads it
and ``generate``s with it).

MODEL defaults to the bundled model's first member (the bundled model is an ensemble of two, and
both engines decode one model; name ``…/bundled/zh-en/member-2`` for the other).
``--quantization`` applies to CTranslate2 (int8 stores the linear maps in 8 bits, about a
quarter of the size).
"""

from __future__ import annotations

import argparse

from ..decode.config import model_decode_config
from ..decode.translator import resolve_model_dir
from ..ensemble_dir import first_member
from ..interop.export_ct2 import QUANTIZATIONS, export_ctranslate2
from ..interop.export_hf import export_huggingface
from ..model_dir import read_checkpoint


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="a model as CTranslate2 or Hugging Face MarianMT",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "model",
        nargs="?",
        metavar="MODEL",
        help="model directory (default: the bundled model's first member)",
    )
    parser.add_argument("--to", required=True, choices=["ctranslate2", "huggingface"])
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="a new directory")
    parser.add_argument(
        "--quantization",
        default="float32",
        choices=QUANTIZATIONS,
        help="CTranslate2 weight type (default float32)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    model = resolve_model_dir(args.model) if args.model else first_member(resolve_model_dir(None))
    if args.to == "ctranslate2":
        print(export_ctranslate2(model, args.output, args.quantization))
    else:
        if args.quantization != "float32":
            raise ValueError("--quantization applies to --to ctranslate2 only")
        beam = model_decode_config(read_checkpoint(model)).beam
        print(export_huggingface(model, args.output, beam))
    return 0

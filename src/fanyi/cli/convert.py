"""``fanyi convert``: a Hugging Face MarianMT model (e.g. Helsinki-NLP/opus-mt-zh-en), or a
Pegasus one that ``fanyi export --format huggingface`` wrote of a pre-norm model, → a fanyi model
directory that ``translate``, ``evaluate``, ``serve`` and ``plot attention`` use as is.

SOURCE is a local MarianMT directory (config.json, model.safetensors or pytorch_model.bin,
source.spm, target.spm, vocab.json) or a Hub name, downloaded with huggingface_hub when a
network is there. A PyTorch weights file is read with ``torch.load(weights_only=True)`` only.
"""

from __future__ import annotations

import argparse

from .flags import switch


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "convert",
        help="import a Hugging Face MarianMT (OPUS-MT) or fanyi-exported Pegasus model",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source", metavar="DIR_OR_NAME", help="MarianMT or Pegasus directory, or Hub name"
    )
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="model directory")
    parser.add_argument("--src-lang", help="source language (default: from an opus-mt-xx-yy name)")
    parser.add_argument("--tgt-lang", help="target language (default: from the name)")
    parser.add_argument("--revision", help="Hub revision (branch, tag or commit)")
    switch(
        parser, "--overwrite", "replace the fanyi model already at the output (never anything else)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..interop.convert import convert_marian

    out = convert_marian(
        args.source, args.output, args.src_lang, args.tgt_lang, args.revision, args.overwrite
    )
    print(out)
    return 0

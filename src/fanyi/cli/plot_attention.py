"""``fanyi plot attention`` and ``fanyi plot positional``: kinds registered in ``cli/plot.py``."""

from __future__ import annotations

import argparse
import sys

from ..translate.model_names import resolve_model_dir
from .translate import add_model_arguments, load_translator


def add_attention(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "attention",
        help="cross-attention heatmaps of one translation, per layer and head (default model: "
        "the bundled model's first member)",
    )
    add_model_arguments(parser)
    parser.add_argument("--text", required=True, help="the sentence to translate")
    parser.add_argument("-o", "--output", default="attention.png", help="PNG to write")
    parser.set_defaults(func=_attention)


def _attention(args: argparse.Namespace) -> int:
    from ..ensemble_dir import first_member
    from ..plot_attention import plot_attention  # matplotlib only when drawing

    if args.model is None and args.engine == "fanyi":  # an ensemble has no single attention map
        args.model = str(first_member(resolve_model_dir(None)))
        print(f"the bundled model's first member: {args.model}", file=sys.stderr)
    translator = load_translator(args)
    maps = translator.cross_attention(args.text, args.to)
    vocab = translator.text.tgt_vocab
    text = vocab.decode([vocab.piece_to_id(piece) for piece in maps.target_tokens[:-1]])
    print(plot_attention(maps, args.output, title=f"{args.text} → {text}"))
    return 0


def add_positional(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("positional", help="the sinusoidal positional encoding (§3.5)")
    parser.add_argument("--max-len", type=int, default=100, help="positions drawn")
    parser.add_argument("--d-model", type=int, default=128, help="dimensions")
    parser.add_argument(
        "--dims", type=int, nargs="+", default=[0, 1, 16, 32, 64], help="dimensions drawn as curves"
    )
    parser.add_argument("-o", "--output", default="positional.png", help="PNG to write")
    parser.set_defaults(func=_positional)


def _positional(args: argparse.Namespace) -> int:
    from ..plot_attention import plot_positional

    print(plot_positional(args.output, args.max_len, args.d_model, tuple(args.dims)))
    return 0

"""``fanyi distill -m MODEL --data DIR -o synthetic.tsv``: self-distillation (data
diversification). The model translates the training sources of a prepared directory into every
language it translates into, and the synthetic pairs are written as a TSV in the layout of the
directory's corpus. Add it to the data config's ``extra_train`` and run ``fanyi prepare`` again:
the split stays as it was, and synthetic pairs that hold a dev or test sentence are left out as
for any extra corpus.
"""

from __future__ import annotations

import argparse

from .translate import add_model_arguments, load_translator


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "distill",
        help="translate a prepared training split with a model: synthetic pairs as a TSV",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(parser)
    parser.add_argument("--data", metavar="DIR", required=True, help="a fanyi prepare directory")
    parser.add_argument("--split", default="train", help="its split to translate (default train)")
    parser.add_argument("--limit", type=int, help="the first N sources of each direction only")
    parser.add_argument("-o", "--output", required=True, help="the TSV file to write")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..distill import distill

    report = distill(load_translator(args), args.data, args.output, args.split, args.limit)
    for to, written in report.written.items():
        print(
            f"→{to}: {written} synthetic pairs; left out {report.same_as_reference[to]} equal to "
            f"the reference and {report.concatenated[to]} concatenated lines"
        )
    print(f"wrote {sum(report.written.values())} pairs to {args.output}")
    return 0

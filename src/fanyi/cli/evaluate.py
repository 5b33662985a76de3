"""``fanyi evaluate``: translate a test set and score it with sacreBLEU (BLEU, chrF, signatures).

``--data DIR --split test`` takes the sources and references of a prepared split (the lines into
``--to`` of a bidirectional one); ``--src``/``--ref`` take them from files. ``--hyp FILE`` scores
an existing output instead (no model needed). ``--ref`` may be repeated for several references.
BLEU uses sacreBLEU's ``zh`` tokenizer when the target is Chinese (``--to``, else detected from
the translations' direction or, with ``--hyp``, from the references' script) and ``13a``
otherwise.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..data.manifest import read_pairs
from ..inputs import TEXT_BYTES, read_text
from ..outputs import claim_file, write_file
from .flags import deprecated, switch
from .translate import add_model_arguments, load_translator

if TYPE_CHECKING:
    from ..scores import Scores


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="BLEU and chrF of a model (or of an output) with sacreBLEU",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(parser)
    parser.add_argument("--data", metavar="DIR", help="a data directory of fanyi prepare")
    parser.add_argument("--split", default="test", help="its split to score (default test)")
    parser.add_argument("--src", metavar="FILE", help="source sentences, one a line")
    parser.add_argument(
        "--ref",
        metavar="FILE",
        action="append",
        default=[],
        help="reference translations (repeat for several references)",
    )
    parser.add_argument("--hyp", metavar="FILE", help="score this output instead of translating")
    parser.add_argument("-o", "--output", metavar="FILE", help="also write the translations here")
    switch(parser, "--overwrite", "replace the -o file if it exists")
    deprecated(parser, "--out", "-o/--output", "output", metavar="FILE")
    switch(parser, "--json", "print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate
    from ..scores import score

    writes = args.output is not None and args.hyp is None
    output = claim_file(args.output, args.overwrite) if writes else None  # before the work
    sources, references, to = _test_set(args)
    if args.hyp is not None:
        hypotheses = _lines(args.hyp)
        scores = score(hypotheses, references, to)
    else:
        hypotheses, scores = evaluate(load_translator(args), sources, references, to)
        if output is not None:
            write_file(output, "".join(f"{h}\n" for h in hypotheses))
    print(_report(scores, args.json))
    return 0


def _test_set(args: argparse.Namespace) -> tuple[list[str], list[list[str]], str | None]:
    """(sources, reference streams, target language) from --data or --src/--ref."""
    if args.data is not None:
        pairs = read_pairs(args.data, args.split, args.to)
        return pairs.sources, [pairs.references], pairs.to
    if not args.ref:
        raise ValueError("give --data DIR, or --ref FILE with --src FILE (or --hyp FILE)")
    if args.src is None and args.hyp is None:
        raise ValueError("give --src FILE to translate, or --hyp FILE to score an output")
    sources = _lines(args.src) if args.src is not None else []
    return sources, [_lines(path) for path in args.ref], args.to


def _report(scores: Scores, as_json: bool) -> str:
    if not as_json:
        return "\n".join(scores.lines)
    return json.dumps(
        {
            "bleu": round(scores.bleu, 2),
            "chrf": round(scores.chrf, 2),
            "bleu_signature": scores.bleu_signature,
            "chrf_signature": scores.chrf_signature,
        }
    )


def _lines(path: str) -> list[str]:
    """The lines of text file ``path`` (a regular file; an error names it)."""
    return read_text(path, TEXT_BYTES).splitlines()

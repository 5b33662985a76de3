"""``fanyi evaluate``: translate a test set and score it with sacreBLEU (BLEU, chrF, signatures).

``--data DIR --split test`` takes the sources and references of a prepared split (the lines into
``--to`` of a bidirectional one); ``--src``/``--ref`` take them from files. ``--hyp FILE`` scores
an existing output instead (no model needed). ``--ref`` may be repeated for several references.
``-o FILE`` gets each translation as soon as it and those before it are done; Ctrl-C keeps them,
and ``--resume`` continues such a file (its lines are not translated again) and scores the whole.
BLEU uses sacreBLEU's ``zh`` tokenizer when the target is Chinese (``--to``, else detected from
the translations' direction or, with ``--hyp``, from the references' script) and ``13a``
otherwise.
"""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..data.manifest import read_pairs
from ..inputs import TEXT_BYTES, read_text
from ..outputs import claim_file
from .flags import deprecated, switch
from .output_lines import finished_inputs
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
    switch(parser, "--resume", "continue an -o file a stopped run left: its lines are kept")
    deprecated(parser, "--out", "-o/--output", "output", metavar="FILE")
    switch(parser, "--json", "print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate
    from ..scores import score

    writes = args.output is not None and args.hyp is None
    resume = writes and args.resume and Path(args.output).exists()
    output = claim_file(args.output, args.overwrite or resume) if writes else None  # first
    sources, references, to = _test_set(args)
    if args.hyp is not None:
        scores = score(_lines(args.hyp), references, to)
    elif output is None:
        scores = evaluate(load_translator(args), sources, references, to)[1]
    else:
        done = _finished(output) if resume else []
        with open(output, "a" if resume else "w", encoding="utf-8") as out:
            write = functools.partial(_write_line, out)
            scores = evaluate(
                load_translator(args), sources, references, to, done=done, write=write
            )[1]
    print(_report(scores, args.json))
    return 0


def _finished(output: Path) -> list[str]:
    """The translations a stopped run left in ``output``: its complete lines (one a kill cut
    short is dropped from the file, to be translated again)."""
    count = finished_inputs(output, 1)
    return output.read_text(encoding="utf-8").splitlines()[:count]


def _write_line(out: TextIO, line: str) -> None:
    out.write(f"{line}\n")
    out.flush()


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

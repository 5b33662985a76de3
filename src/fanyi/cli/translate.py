r"""``fanyi translate``: translate text from stdin, a file, or ``--text``; one line out per line in.

Every sentence of a line is translated: the line is cut into sentences, and their translations
are joined again. Every DecodeConfig key is a flag (``--beam 5 --length-penalty 1.0 --dtype
bf16 --keep-numbers false``), on top of ``--config FILE`` (YAML of DecodeConfig keys).

From stdin each line is answered as soon as it arrives (lines already waiting are translated
together), so another program can talk to it line by line, as with ``fairseq-interactive``. A
file is read in chunks and batched by tokens. Lines end at ``\n`` only (a ``\r`` before it is
dropped; a lone ``\r`` stays inside the line), so output lines match ``wc -l``. An empty line
gives an empty line; so does a line that is not UTF-8, with the warning ``line N: invalid
UTF-8`` on stderr, or one that fails to decode, with ``line N: not translated: why``; the exit
status is then 1 once every other line is translated. Each line is written as soon as it and
the lines before it are translated.

A target prefix makes every translation start with the given text; the search continues from it
(CTranslate2's ``target_prefix``, fairseq's ``--prefix-size``): ``--prefix TEXT`` for every
line, or ``--tsv``, where each line is ``source<TAB>prefix`` (Marian's ``--tsv`` layout, the
prefix in the target column; a line without a TAB has ``--prefix``, or none).

Constraints hold a translation to phrases of the target language, each written as given
(fairseq's ``--constraints``; ``decode/constraints.py``): ``--constraint PHRASE`` (repeated) for
every line, or ``--constraints``, where each line is ``source<TAB>phrase<TAB>phrase…``
(fairseq-interactive's layout). A line whose translation misses one is searched again, held to
them; a line of several sentences is refused (its sentences hold them apart).

With ``--n-best K`` each input line gives up to K lines ``i ||| translation ||| score`` (i: the
0-based input line; score: log-probability over the GNMT length penalty, best first), as in
Moses' n-best lists; a line of several sentences gives one (their best translations joined), an
empty input line one with an empty translation and score 0.

With ``--format jsonl`` each input line gives one JSON object: its source, translation, score,
n-best candidates, language (``from``: given or detected) and error (``formats.py``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import select
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..decode.options import MAX_BATCH_TOKENS
from ..device import DEVICES
from ..engines.registry import ALIASES, ENGINES
from ..inputs import WINDOW_LINES
from . import document
from .arguments import at_least, device, threads
from .collector import paused_then_frozen
from .decode_flags import add_decode_flags, given_keys
from .flags import deprecated_values
from .formats import FORMATS, written
from .output_lines import claim_output, open_output
from .progress import Progress

if TYPE_CHECKING:
    from ..translate.translation import Translation
    from ..translate.translator import Translator

CHUNK_LINES = WINDOW_LINES  # lines of a file sorted into batches together
READ_BYTES = 1 << 16
BATCH_BYTES = 1 << 20  # most stdin bytes gathered into one batch


def add_model_arguments(parser: argparse.ArgumentParser, target: bool = True) -> None:
    """``-m``, ``--threads``, every DecodeConfig key … shared by translate, evaluate and serve
    (``target``: also ``--to``, which the server takes per request instead)."""
    parser.add_argument(
        "-m",
        "--model",
        metavar="DIR",
        help="model directory or bundled name (default: zh-en-general)",
    )
    if target:
        parser.add_argument(
            "--to",
            metavar="LANG",
            help="target language, any code of it: en, en-US, zh, zh-CN, zh-TW (Taiwan's "
            "characters), zh-HK, zh-Hant (default: the other language than each line's)",
        )
    parser.add_argument("--config", metavar="FILE", help="YAML file of DecodeConfig keys")
    parser.add_argument(
        "--batch-tokens",
        type=at_least(1, MAX_BATCH_TOKENS),
        default=4096,
        metavar="N",
        help="source tokens per batch (default 4096)",
    )
    parser.add_argument(
        "--threads", type=threads, default=0, metavar="N", help="CPU threads (0: every core)"
    )
    parser.add_argument("--device", type=device, default="cpu", help=f"{DEVICES} (default cpu)")
    deprecated_values(
        parser,
        "--engine",
        sorted(ENGINES),
        {old: {"engine": new, **load} for old, (new, load) in ALIASES.items()},
        default="fanyi",
        help="fanyi (--compile true: its decoder steps compiled); ctranslate2: CTranslate2 "
        "decoding -m DIR written by fanyi export (default fanyi)",
    )
    add_decode_flags(parser)


def load_translator(args: argparse.Namespace) -> Translator:
    """The translator the shared arguments describe, on this process's threads."""
    from ..runtime import set_threads
    from ..translate.translator import Translator

    set_threads(args.threads)
    options = given_keys(args, args.config)  # over the model's own defaults
    with paused_then_frozen():
        return Translator.load(
            args.model, None, args.engine, args.device, args.batch_tokens, **options
        )


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """What is translated, in which language, and where its translations go."""
    parser.add_argument(
        "--from",
        dest="source_lang",
        metavar="LANG",
        help="the input's language (default: detected per line, by the script most of its words "
        "are in); a line already in --to is written as it is",
    )
    parser.add_argument("-i", "--input", metavar="FILE", help="input file (default: stdin)")
    parser.add_argument("-o", "--output", metavar="FILE", help="output file (default: stdout)")
    parser.add_argument("--text", help="translate this text and exit")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "translate",
        help="translate stdin, a file or --text",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(parser)
    add_input_arguments(parser)
    parser.add_argument(
        "--prefix", metavar="TEXT", help="start every translation with TEXT (a target prefix)"
    )
    layout = parser.add_mutually_exclusive_group()
    layout.add_argument(
        "--tsv",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="input lines are SOURCE<TAB>PREFIX: each translation starts with its PREFIX",
    )
    layout.add_argument(
        "--constraints",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="input lines are SOURCE<TAB>PHRASE<TAB>…: each translation holds every PHRASE",
    )
    parser.add_argument(
        "--constraint",
        metavar="PHRASE",
        action="append",
        default=[],
        help="every translation holds PHRASE as written (repeat for more)",
    )
    parser.add_argument(
        "--resume",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="continue an -o file a stopped run left: skip the input lines it holds",
    )
    document.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.document is not None:
        return document.run(args, load_translator)
    if (args.format or "text") not in FORMATS:
        raise ValueError(f"--format {args.format} is a document's: give the document as FILE")
    output = claim_output(args)
    translator = load_translator(args)
    try:
        return _translate_lines(args, translator, output)
    except BrokenPipeError:
        raise
    except OSError as error:
        if error.filename is not None:
            raise
        name = args.output or "stdout"  # a write failed: say where (a full disk, say)
        raise OSError(error.errno, error.strerror, name) from None


def _translate_lines(args: argparse.Namespace, translator: Translator, output: Path | None) -> int:
    """Translate the input line by line into the output, each line written as soon as it and
    those before it are done; 1 if a line was not UTF-8 or failed to decode. A file's progress
    shows on stderr when it is a terminal."""
    per_input = translator.options.n_best if (args.format or "text") == "text" else 1
    out, done = open_output(output, args.resume, per_input)  # lines a line's translation takes
    progress = Progress(args.input if args.text is None else None)
    bad = 0
    try:
        index = done
        for lines in _input_batches(args, skip=done):
            texts = [decode_line(line) for line in lines]
            sources, prefixes = with_prefixes([text or "" for text in texts], args)
            sources, phrases = with_phrases(sources, args)
            held: dict[str, Any] = {"target_prefix": prefixes, "constraints": phrases}
            results = translator.stream(sources, args.to, source_lang=args.source_lang, **held)
            for i, (text, result) in enumerate(zip(texts, results, strict=True)):
                problem = "invalid UTF-8" if text is None else result.error
                out.writelines(
                    written(args.format or "text", result, index + i, per_input, problem)
                )
                out.flush()
                bad += _reported(args, progress, index + i, problem, result)
            index += len(lines)
    finally:
        progress.close()
        if out is not sys.stdout:
            out.close()
    return 1 if bad else 0


def _reported(
    args: argparse.Namespace,
    progress: Progress,
    index: int,
    problem: str | None,
    result: Translation,
) -> int:
    """Count line ``index``'s translation on the progress bar and say what went wrong with it
    on stderr: 1 if it was not translated."""
    from ..translate.translation import unplaced_terms

    progress.done(result)
    where = "--text" if args.text is not None else f"line {index + 1}"
    if result.unplaced:
        progress.say(f"fanyi translate: {where}: {unplaced_terms(result.unplaced)}")
    if problem is not None:
        progress.say(f"fanyi translate: {where}: {problem}")
    return problem is not None


def with_prefixes(texts: list[str], args: argparse.Namespace) -> tuple[list[str], list[str | None]]:
    """The sources of ``texts`` and each one's target prefix: ``--prefix``, or with ``--tsv`` the
    text after a line's first TAB."""
    if not args.tsv:
        return texts, [args.prefix] * len(texts)
    cells = [text.split("\t", 1) for text in texts]
    return [c[0] for c in cells], [c[1] if len(c) > 1 else args.prefix for c in cells]


def with_phrases(
    texts: list[str], args: argparse.Namespace
) -> tuple[list[str], list[list[str] | None]]:
    """The sources of ``texts`` and the phrases each translation holds: ``--constraint``'s, and
    with ``--constraints`` the cells after a line's first TAB."""
    if not args.constraints:
        return texts, [args.constraint or None] * len(texts)
    cells = [text.split("\t") for text in texts]
    return [c[0] for c in cells], [[*c[1:], *args.constraint] or None for c in cells]


def _input_batches(args: argparse.Namespace, skip: int = 0) -> Iterable[list[bytes]]:
    """The input's lines in batches, the first ``skip`` left out: ``--text``, the file of
    ``-i``, or stdin as it arrives."""
    if args.text is not None:
        return [[os.fsencode(args.text)]][skip:]  # argv's own bytes
    if args.input:
        return _file_chunks(args.input, skip)
    return skipped(stdin_batches(sys.stdin.fileno()), skip)


def skipped(batches: Iterable[list[bytes]], skip: int) -> Iterator[list[bytes]]:
    """``batches`` without their first ``skip`` lines."""
    for batch in batches:
        kept, skip = batch[skip:], max(0, skip - len(batch))
        if kept:
            yield kept


def decode_line(line: bytes) -> str | None:
    """``line`` as text, or None when it is not UTF-8."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


def split_lines(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines of ``data`` (split at ``\n``, a ``\r`` before it dropped) and the
    unfinished rest."""
    *lines, rest = data.split(b"\n")
    return [line.removesuffix(b"\r") for line in lines], rest


def stdin_batches(fd: int) -> Iterator[list[bytes]]:
    """Lines of ``fd`` as they arrive: everything readable without waiting, cut at the last
    newline, is one batch; a final line without a newline comes last."""
    pending = b""
    while True:
        chunk = os.read(fd, READ_BYTES)
        while chunk and len(chunk) < BATCH_BYTES and select.select([fd], [], [], 0)[0]:
            more = os.read(fd, READ_BYTES)
            if not more:
                break
            chunk += more
        lines, pending = split_lines(pending + chunk)
        if lines:
            yield lines
        if not chunk:
            break
    if pending:
        yield [pending.removesuffix(b"\r")]


def _file_chunks(path: str, skip: int = 0) -> Iterator[list[bytes]]:
    """The lines of file ``path`` after the first ``skip``, CHUNK_LINES at a time (split as
    :func:`split_lines` does)."""
    with open(path, "rb") as f:
        lines = (line.removesuffix(b"\n").removesuffix(b"\r") for line in f)
        rest = itertools.islice(lines, skip, None)
        while chunk := list(itertools.islice(rest, CHUNK_LINES)):
            yield chunk

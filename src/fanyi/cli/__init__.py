"""``fanyi <command>``: each command is a module here that parses its flags and calls one function.

A command module defines ``add_parser(subparsers)``, which registers the sub-parser and sets
``func`` (called with the parsed arguments, returning an exit status). Only the command named is
imported, so that ``fanyi translate`` never loads the trainer, and ``fanyi --help`` and
``--version`` none (they answer in a fraction of a second, without torch).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

from .. import exit_interrupted
from .._version import __version__
from . import allocator
from .collector import as_program, paused_then_frozen

# Each command module (fanyi.cli.<name>) with its one-line help, in the order `fanyi --help`
# lists them: `fanyi --help` and `--version` import none of them (they would import torch).
COMMANDS = {
    "demo": "train the copy task in about a minute and decode it",
    "prepare": "clean, split and encode a parallel corpus into a data directory",
    "data": "corpora: downloads, and real-text sources (docs, news, captions, CC-CEDICT, OPUS) as TSV",
    "train": "train a Transformer on a prepared data directory",
    "average": "average the parameters of a run's last checkpoints, or of several models",
    "ensemble": "combine trained models into one ensemble that translates by their mean prediction",
    "convert": "import a Hugging Face MarianMT (OPUS-MT) or fanyi-exported Pegasus model",
    "export": "a model as CTranslate2 or Hugging Face (MarianMT, Pegasus)",
    "translate": "translate stdin, a file or --text",
    "po": "fill the untranslated entries of a gettext catalogue (.po), flagged fuzzy",
    "evaluate": "BLEU and chrF of a model (or of an output) with sacreBLEU",
    "truecase": "list the words the training text writes in lower case, for reading headlines",
    "tune": "choose the length penalty on the dev split (and store it in the model)",
    "distill": "translate a prepared training split with a model: synthetic pairs as a TSV",
    "serve": "HTTP API and web page (FastAPI + uvicorn)",
    "plot": "draw figures (training curves, ...) to PNG",
    "recipe": "train and score a recipe of configs/recipes/ within a time budget",
    "info": "a model's languages, architecture, size, dtypes, scores, data and licence",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``command`` (when it is one of COMMANDS: only its module is imported), the
    others listed by name and help."""
    parser = argparse.ArgumentParser(
        prog="fanyi", description="fanyi (翻译): Transformer neural machine translation."
    )
    parser.add_argument("--version", action="version", version=f"fanyi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, summary in COMMANDS.items():
        if name == command:
            importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
        else:
            subparsers.add_parser(name, help=summary, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; what goes wrong ends in one line on stderr and an exit status:
    2 for a user's error (a file, a flag), 130 for Ctrl-C (even while torch is being imported),
    141 without a word when the reader of stdout has gone (``| head -1``), as Unix tools do.
    ``argv`` None: this process is the program, started with ``sys.argv``."""
    with as_program(argv is None):
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    """:func:`main`'s work."""
    heavy = sys.argv[1:2] and sys.argv[1] in allocator.COMMANDS
    command = "fanyi"
    _INTERRUPTED.clear()  # a Ctrl-C of an earlier call in this process
    try:
        with _leave_at_once_on_ctrl_c():
            if argv is None and heavy:  # as a program only, never in a caller's process
                allocator.expandable_cuda_segments()
                if sys.platform.startswith("linux"):
                    allocator.reexec_with_tcmalloc()
            argv = sys.argv[1:] if argv is None else argv
            with paused_then_frozen():
                args = parse(argv)  # imports the command's module (and torch)
        command = f"fanyi {args.command}"
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 141
    except (ValueError, OSError) as error:  # user errors: one clear line, no traceback
        if _INTERRUPTED.is_set():  # Ctrl-C inside a library's C++ call, which raised this
            print("interrupted", file=sys.stderr)
            return 130
        print(f"{command}: error: {_describe(error)}", file=sys.stderr)
        return 2


def parse(argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed; an unknown flag is the command's error, with the command's usage."""
    parser = build_parser(argv[0] if argv else None)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


@contextlib.contextmanager
def _leave_at_once_on_ctrl_c() -> Iterator[None]:
    """While modules are imported, Ctrl-C exits at once (130): a KeyboardInterrupt raised in the
    middle of a library's import can leave it half-initialised, to fail later in odd ways. Where
    Ctrl-C is ignored (a background job of a shell without job control), it stays ignored."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        yield
        return
    previous = signal.signal(signal.SIGINT, exit_interrupted)
    try:
        yield
    finally:  # Python's own handler, noting the signal, where the program's start had put
        # exit_interrupted
        own = previous is exit_interrupted or previous is signal.default_int_handler
        signal.signal(signal.SIGINT, _interrupt if own else previous)


_INTERRUPTED = threading.Event()  # Ctrl-C came while a command ran


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Python's own Ctrl-C (a KeyboardInterrupt), noted: a library that turns the interrupt
    into an error of its own (torch: "could not determine the shape of object type …") still
    ends the command as interrupted (130)."""
    _INTERRUPTED.set()
    signal.default_int_handler(signum, frame)


def _describe(error: Exception) -> str:
    """``FILE: reason`` for an operating-system error about a file, else the message."""
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return str(error)

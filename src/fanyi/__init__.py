"""fanyi (翻译): the Transformer of "Attention Is All You Need", built to translate.

The public names are imported on first use (PEP 562), so that ``import fanyi`` does not import
torch. When this process is the fanyi program (``fanyi …``, ``python -m fanyi …``), Ctrl-C
exits at once with one line from here, the first of its code to run, until the command has
started (``fanyi.cli.main``): a KeyboardInterrupt in the middle of an import, even of the
standard library's modules, printed a traceback and could leave a module half-initialised.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal's C core: importing signal takes ms
import os
import sys


def exit_interrupted(signum: int, frame: object) -> None:
    """Ctrl-C while fanyi starts: one line, exit status 130, at once."""
    print("interrupted", file=sys.stderr, flush=True)
    os._exit(130)


def _as_program() -> bool:
    """Whether this process runs the fanyi program, rather than a caller importing fanyi."""
    argv = getattr(sys, "orig_argv", [])
    return argv[1:3] == ["-m", "fanyi"] or (len(argv) > 1 and os.path.basename(argv[1]) == "fanyi")


if _as_program() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, exit_interrupted)  # fanyi.cli.main restores Python's own

# after the guard above, so that Ctrl-C during these imports exits at once too
import importlib  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

from ._version import __version__  # noqa: E402

if TYPE_CHECKING:
    from .documents.translator import Translator
    from .model import ModelConfig, Transformer, build_model

_HOMES = {
    "ModelConfig": ".model",
    "Transformer": ".model",
    "build_model": ".model",
    "Translator": ".documents.translator",  # the translate package's, with documents
}
__all__ = ["ModelConfig", "Transformer", "Translator", "__version__", "build_model"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

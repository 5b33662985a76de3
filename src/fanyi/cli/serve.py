"""``fanyi serve``: the HTTP API (``POST /translate``, ``GET /health``, OpenAPI at ``/docs``) and
the web page at ``/``, with uvicorn."""

from __future__ import annotations

import argparse
import sys

from ..serve import Limits, create_app
from .arguments import at_least, seconds
from .translate import add_model_arguments, load_translator


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="HTTP API and web page (FastAPI + uvicorn)", description=__doc__
    )
    add_model_arguments(parser, target=False)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=at_least(0, 65535), default=8000)
    defaults = Limits()
    parser.add_argument(
        "--max-chars",
        type=at_least(1),
        default=defaults.max_chars,
        help="characters per text (413 beyond)",
    )
    parser.add_argument(
        "--max-texts",
        type=at_least(1),
        default=defaults.max_texts,
        help="texts per request (413 beyond)",
    )
    parser.add_argument(
        "--max-tokens",
        type=at_least(1),
        default=defaults.max_tokens,
        help="source tokens per request, its texts together (413 beyond)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=defaults.timeout,
        help="seconds a request may take (503 beyond; its decoding then stops)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn  # only this command needs it

    limits = Limits(
        max_chars=args.max_chars,
        max_texts=args.max_texts,
        max_tokens=args.max_tokens,
        timeout=args.timeout,
    )
    translator = load_translator(args)
    if (
        translator.engine.options.compile
    ):  # compile before the first request, not within its timeout
        print(
            "fanyi serve: compiling the decoder step (15-25 s a model) ...",
            file=sys.stderr,
            flush=True,
        )
        translator.translate(
            ["你好。我很好。", "Hello. How are you?"] * 2, to=translator.targets[0]
        )
    app = create_app(translator, limits)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0

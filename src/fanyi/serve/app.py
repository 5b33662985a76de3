"""The FastAPI application: ``POST /translate``, ``GET /health``, and the web page at ``/``.

Every way a request can be wrong has its answer, never a 500: a body over ``max_body`` bytes,
too many texts or too long a text → 413; malformed JSON, wrong types, impossible options → 422
(a body that is not UTF-8: 400, FastAPI's own answer); more texts waiting than the service
takes, or decoding slower than ``timeout`` → 503.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._version import __version__
from ..decode.translator import Translation as Result
from ..decode.translator import Translator
from . import schemas
from .batching import Batcher, Overloaded

STATIC = Path(__file__).parent / "static"


@dataclass
class Limits:
    """What one request may ask for, and how requests are batched."""

    max_chars: int = 1000  # characters per text (413 beyond)
    max_texts: int = 64  # texts per request (413 beyond)
    max_body: int = 1 << 20  # bytes of request body (413 beyond)
    max_beam: int = 8  # 422 beyond
    timeout: float = 30.0  # seconds a request may wait for its translations (503 beyond)
    max_waiting: int = 2048  # texts queued or decoding, all requests together (503 beyond)
    batch_wait: float = 0.005  # seconds to gather concurrent requests into one batch
    batch_texts: int = 256  # most texts gathered into one batch


class BodyLimit:
    """ASGI middleware: refuse a request body larger than ``max_bytes`` with 413, before any
    parsing (it reads the body itself, then replays it to the app)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        body = bytearray()
        more = self._declared(scope) <= self.max_bytes
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                break
        if len(body) > self.max_bytes or self._declared(scope) > self.max_bytes:
            detail = f"request body over {self.max_bytes} bytes"
            await JSONResponse({"detail": detail}, status_code=413)(scope, receive, send)
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    @staticmethod
    def _declared(scope: Scope) -> int:
        """The Content-Length header's value (0 when absent or not a number)."""
        for name, value in scope["headers"]:
            if name == b"content-length":
                return int(value) if value.isdigit() else 0
        return 0


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that first returns the whole ``body``, then defers to the real one."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def check_limits(request: schemas.TranslateRequest, limits: Limits, translator: Translator) -> None:
    """Raise the HTTP error for a request the service will not decode."""
    if len(request.text) > limits.max_texts:
        raise HTTPException(413, f"{len(request.text)} texts; at most {limits.max_texts}")
    longest = max(map(len, request.text), default=0)
    if longest > limits.max_chars:
        raise HTTPException(413, f"a text has {longest} characters; at most {limits.max_chars}")
    beam = request.beam or translator.config.beam
    if beam > limits.max_beam:
        raise HTTPException(422, f"beam {beam} is over the limit {limits.max_beam}")
    if (request.n_best or 1) > beam:
        raise HTTPException(422, f"n_best {request.n_best} exceeds beam {beam}")
    if request.to is not None and request.to not in translator.targets:
        raise HTTPException(422, f"this model translates into {', '.join(translator.targets)}")


def to_schema(result: Result, attention: bool) -> schemas.Translation:
    """A translator result as the API's JSON."""
    candidates = [
        schemas.Candidate(
            text=c.text,
            score=c.score,
            log_prob=c.log_prob,
            tokens=c.tokens if attention else None,
            attention=c.attention.tolist() if attention and c.attention is not None else None,
        )
        for c in result.candidates
    ]
    source_tokens = result.source_tokens if attention else None
    return schemas.Translation(
        text=result.text, to=result.to, candidates=candidates, source_tokens=source_tokens
    )


def add_api_routes(app: FastAPI, translator: Translator, limits: Limits, batcher: Batcher) -> None:
    """``POST /translate`` (through ``batcher``) and ``GET /health``."""

    @app.post("/translate", response_model=schemas.TranslateResponse)
    async def translate_texts(request: schemas.TranslateRequest) -> schemas.TranslateResponse:
        """Translate ``text`` (a list); one entry per text, with its n-best candidates."""
        check_limits(request, limits, translator)
        options = (request.to, request.beam, request.n_best, request.attention)
        try:
            results = await asyncio.wait_for(batcher.submit(request.text, options), limits.timeout)
        except Overloaded as error:
            raise HTTPException(503, f"busy: {error}; retry later") from None
        except asyncio.TimeoutError:
            raise HTTPException(503, f"not translated within {limits.timeout:g} s") from None
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return schemas.TranslateResponse(
            translations=[to_schema(r, request.attention) for r in results]
        )

    @app.get("/health", response_model=schemas.Health)
    async def health() -> schemas.Health:
        """Liveness, the model directory and the languages it translates into."""
        return schemas.Health(
            model=str(translator.checkpoint.path),
            targets=translator.targets,
            beam=translator.config.beam,
            waiting=batcher.waiting,
        )


def create_app(translator: Translator, limits: Limits | None = None) -> FastAPI:
    """The service for ``translator``: JSON API, health check, web page."""
    limits = limits or Limits()
    if translator.config.beam > limits.max_beam:
        raise ValueError(
            f"the default beam {translator.config.beam} is over max_beam {limits.max_beam}"
        )

    def translate(texts: list[str], options: tuple[Any, ...]) -> list[Result]:
        to, beam, n_best, attention = options
        return translator.translations(texts, to=to, beam=beam, n_best=n_best, attention=attention)

    batcher = Batcher(translate, limits.batch_wait, limits.batch_texts, limits.max_waiting)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        batcher.close()

    app = FastAPI(
        lifespan=lifespan,
        title="fanyi",
        version=__version__,
        description=f"Transformer translation into {', '.join(translator.targets)}. "
        "The web page is at /.",
    )
    app.add_middleware(BodyLimit, max_bytes=limits.max_body)

    add_api_routes(app, translator, limits, batcher)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

"""The FastAPI application: ``POST /translate``, ``GET /health``, and the web page at ``/``.

Every way a request can be wrong has its answer, never a 500: a body over ``max_body`` bytes,
too many texts or too many tokens → 413; malformed JSON, wrong types, impossible options → 422
(a body that is not UTF-8: 400, FastAPI's own answer); more texts waiting than the service
takes, or no answer within ``timeout`` → 503. A text that cannot be translated by itself (not
Unicode, too long, or failed) is answered 200 with its ``error`` in its place, the others
translated (``admission.py``). A request that times out or whose client goes away stops being
decoded at the next step.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._version import __version__
from ..decode import StepHook
from ..filenames import INDEX_FILE
from ..translate.request import Request as TextRequest
from ..translate.translation import Translation as Result
from ..translate.translator import Translator
from . import schemas
from .admission import Admission, Chosen, admitted
from .batching import Batcher, Overloaded
from .documents import add_document_route
from .limits import Limits
from .memory import release_free_memory

STATIC = Path(__file__).parent / "static"
T = TypeVar("T")


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


async def validation_error(request: Request, error: Exception) -> JSONResponse:
    """FastAPI's 422 for a body that does not fit the schema, with what JSON cannot carry back
    made printable: non-finite numbers (``1e400``, ``NaN``: Python's parser accepts them) and
    lone surrogates (``"\\udcff"``) are echoed as text."""
    assert isinstance(error, RequestValidationError)
    return JSONResponse({"detail": _echoable(jsonable_encoder(error.errors()))}, status_code=422)


def _echoable(value: Any) -> Any:
    """``value`` with non-finite floats as their text (``"inf"``) and lone surrogates escaped."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_echoable(k): _echoable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_echoable(v) for v in value]
    return value


async def unless_disconnected(work: Awaitable[T], receive: Receive) -> T:
    """The result of ``work``, which is cancelled if the client disconnects first (499)."""
    task, gone = asyncio.ensure_future(work), asyncio.ensure_future(_disconnect(receive))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not task.done():
            task.cancel()
    if not task.done():
        raise HTTPException(499, "the client closed the connection")
    return task.result()


async def _disconnect(receive: Receive) -> None:
    """Return once the client has gone (the request body was read before)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def model_name(path: Path) -> str:
    """A model directory's name, with its run's for a run checkpoint (never the full path)."""
    return f"{path.parent.name}/{path.name}" if (path.parent / INDEX_FILE).is_file() else path.name


def to_schema(result: Result, attention: bool) -> schemas.Translation:
    """A translator result as the API's JSON (a failed text: no candidates, its error)."""
    if result.error is not None:
        return failed(result.to, result.error)
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
        text=result.text,
        to=result.to,
        candidates=candidates,
        source_tokens=source_tokens,
        unplaced=result.unplaced,
        error=None,
    )


def failed(to: str | None, error: str) -> schemas.Translation:
    """The entry of a text not translated: no text, no candidates, its error."""
    return schemas.Translation(
        text="", to=to, candidates=[], source_tokens=None, unplaced=[], error=error
    )


def answered(admission: Admission, results: list[Result]) -> schemas.TranslateResponse:
    """One entry per text of the request, in order: a translation, or the error of a text
    refused by itself."""
    attention = admission.options[0].attention
    entries = {i: to_schema(r, attention) for i, r in zip(admission.places, results, strict=True)}
    for i, refused in admission.refused.items():
        entries[i] = failed(refused.to, refused.error)
    return schemas.TranslateResponse(translations=[entries[i] for i in sorted(entries)])


def add_api_routes(app: FastAPI, translator: Translator, limits: Limits, batcher: Batcher) -> None:
    """``POST /translate`` (through ``batcher``), ``GET /health`` and ``POST /translate/document``."""

    async def translate_texts(
        request: schemas.RequestBase, http: Request
    ) -> schemas.TranslateResponse:
        """Translate ``text`` (a list, or one string); one entry per text, with its n-best
        candidates, or the error of a text that could not be translated."""
        admission = admitted(request, limits, translator)
        if not admission.texts:
            return answered(admission, [])
        job = batcher.submit(admission.texts, admission.options, admission.cost)
        work = asyncio.wait_for(job, limits.timeout)
        try:
            results = await unless_disconnected(work, http.receive)
        except Overloaded as error:
            raise HTTPException(503, f"busy: {error}; retry later") from None
        except asyncio.TimeoutError:
            raise HTTPException(503, f"not translated within {limits.timeout:g} s") from None
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return answered(admission, results)

    # the request's fields as the registry has them now (a transform registered after import too)
    translate_texts.__annotations__["request"] = schemas.translate_request()
    app.post("/translate", response_model=schemas.TranslateResponse)(translate_texts)
    add_health_route(app, translator, batcher)
    add_document_route(app, translator, limits)


def add_health_route(app: FastAPI, translator: Translator, batcher: Batcher) -> None:
    """``GET /health``."""

    @app.get("/health", response_model=schemas.Health)
    async def health() -> schemas.Health:
        """Liveness, the model's name, the languages it translates into, its default beam, and
        the work in hand."""
        return schemas.Health(
            model=model_name(translator.checkpoint.path),
            targets=translator.targets,
            beam=translator.options.beam,
            waiting=batcher.waiting,
            busy=batcher.decoding > 0,
            decoding=batcher.decoding,
            decoding_s=round(batcher.decoding_seconds(), 3),
        )


def translate(
    translator: Translator, texts: list[TextRequest], options: Chosen, hook: StepHook
) -> list[Result]:
    """What the batcher runs: ``texts`` by ``options`` (the search and the text options)."""
    search, text = options
    return translator.translate(texts, None, search, hook, text_options=text)


def create_app(translator: Translator, limits: Limits | None = None) -> FastAPI:
    """The service for ``translator``: JSON API, health check, web page."""
    limits = limits or Limits()
    if translator.options.beam > limits.max_beam:
        raise ValueError(
            f"the default beam {translator.options.beam} is over max_beam {limits.max_beam}"
        )

    batcher = Batcher(
        partial(translate, translator),
        limits.batch_wait,
        limits.batch_cost,
        limits.max_heavy,
        limits.max_waiting,
        on_idle=release_free_memory,
    )

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
    app.add_exception_handler(RequestValidationError, validation_error)

    add_api_routes(app, translator, limits, batcher)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

"""``POST /translate/document``: a file uploaded (multipart, field ``file``; ``to`` and
``format`` optional fields) comes back translated, in its own format and content type, named
``NAME.TO.EXT``, with the report on its segments in the ``X-Fanyi-Report`` header (JSON).

The server's ``max_body`` bounds the upload (413). A format fanyi does not read → 415; a file
its parser refuses, or an impossible ``to`` → 422; not translated within the server's
``timeout`` → 503 (its decoding stops at the next step). One document is translated at a time, in
a thread of its own, beside the batcher's.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

from fastapi import FastAPI, File, Form, HTTPException, UploadFile
from fastapi.responses import Response

from ..decode.hypothesis import Cancelled, StepHook
from ..documents.api import TranslatedDocument, UnknownFormat, read_document
from ..documents.api import translate_read_document as translate_read
from ..translate.translator import Translator
from .limits import Limits

CONTENT_TYPES = {
    "text": "text/plain; charset=utf-8",
    "markdown": "text/markdown; charset=utf-8",
    "srt": "application/x-subrip; charset=utf-8",
    "vtt": "text/vtt; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "xliff": "application/xliff+xml",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "po": "text/x-gettext-translation",
}


def add_document_route(app: FastAPI, translator: Translator, limits: Limits) -> None:
    """``POST /translate/document`` on ``app``, translating by ``translator`` within
    ``limits.timeout``."""
    one_at_a_time = asyncio.Semaphore(1)

    @app.post("/translate/document", response_class=Response)
    async def translate_document(
        file: Annotated[UploadFile, File(description="the document")],
        to: Annotated[str | None, Form(description="the target language")] = None,
        format: Annotated[str | None, Form(description="the format (default: by name)")] = None,
    ) -> Response:
        """The uploaded document translated, in its own format (see ``fanyi translate FILE``)."""
        name = Path(file.filename or "document").name or "document"
        data = await file.read()
        stop = threading.Event()
        async with one_at_a_time:
            work = asyncio.to_thread(translated, translator, data, name, to, format, stop)
            try:
                done = await asyncio.wait_for(work, limits.timeout)
            except asyncio.TimeoutError:
                raise HTTPException(503, f"not translated within {limits.timeout:g} s") from None
            finally:
                stop.set()
        return Response(
            done.data,
            media_type=CONTENT_TYPES.get(done.format, "application/octet-stream"),
            headers={
                "Content-Disposition": disposition(output_name(name, done.to)),
                "X-Fanyi-Report": json.dumps(done.report.to_dict()),
            },
        )


def translated(
    translator: Translator,
    data: bytes,
    name: str,
    to: str | None,
    format: str | None,
    stop: threading.Event,
) -> TranslatedDocument:
    """The document ``data`` called ``name`` translated (its decoding cancelled once ``stop`` is
    set), or the HTTP error that refuses it."""
    try:
        found, document = read_document(data, format or None, name)
    except UnknownFormat as error:
        raise HTTPException(415, str(error)) from None
    except Exception as error:  # any parser's refusal is the file's fault, never a 500
        raise HTTPException(422, _line(error, name)) from None
    try:
        return translate_read(translator, found, document, to, between_steps=stopper(stop))
    except ValueError as error:
        raise HTTPException(422, str(error)) from None


def stopper(stop: threading.Event) -> StepHook:
    """A hook between decoding steps that cancels the search once ``stop`` is set."""

    def check() -> None:
        if stop.is_set():
            raise Cancelled("the request ended")

    return check


def output_name(name: str, to: str) -> str:
    """``notes.md`` translated into ``zh``: ``notes.zh.md``."""
    path = Path(name)
    return f"{path.stem}.{to}{path.suffix}"


def disposition(filename: str) -> str:
    """A Content-Disposition header offering ``filename`` (any Unicode) for download."""
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "_").replace("?", "_")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"


def _line(error: Exception, name: str) -> str:
    """The refusal as one line that names the file."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if name in text else f"{name}: {text}"

"""HTTP service: the JSON API (FastAPI) and the web page that calls it.

app.py       create_app(translator, limits): routes, limits, the request-size guard
schemas.py   the JSON of requests and answers (pydantic: validated, documented in OpenAPI)
batching.py  concurrent requests gathered into decoding batches, each in a worker thread
turns.py     the batches take turns between decoding steps; cancelled ones stop
static/      the web page: text box, direction, translation, attention heatmap (no CDN)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .limits import Limits

# Each public name's module, imported on first use (PEP 562): importing one light module of
# this package (its options, its configs) imports none of the others, nor torch.
_HOMES = {
    "Limits": ".limits",
    "create_app": ".app",
}
__all__ = ["Limits", "create_app"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""HTTP service: the JSON API (FastAPI) and the web page that calls it.

app.py       create_app(translator, limits): routes, limits, the request-size guard
schemas.py   the JSON of requests and answers (pydantic: validated, documented in OpenAPI)
batching.py  concurrent requests gathered into decoding batches, each in a worker thread
turns.py     the batches take turns between decoding steps; cancelled ones stop
static/      the web page: text box, direction, translation, attention heatmap (no CDN)
"""

from .app import Limits, create_app

__all__ = ["Limits", "create_app"]

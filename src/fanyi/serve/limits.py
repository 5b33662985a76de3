"""What the service allows: the size of a request, the time it may take, how requests are batched
and scheduled, and how long a connection may be idle or slow (``fanyi serve``'s flags and the
keys of its ``--config`` file)."""

from __future__ import annotations

from dataclasses import dataclass

from ..decode.options import MAX_BEAM


@dataclass
class Limits:
    """What one request may ask for, how requests are batched and scheduled, and how long a
    connection may wait (each field described in :data:`LIMIT_HELP`, bounded by
    :data:`LIMIT_BOUNDS`)."""

    max_chars: int = 1000
    max_texts: int = 64
    max_tokens: int = 4096
    max_body: int = 1 << 20
    max_beam: int = 8
    timeout: float = 30.0
    max_waiting: int = 2048
    batch_wait: float = 0.005
    batch_cost: int = 4096
    max_heavy: int = 2
    read_timeout: float = 10.0
    keep_alive: float = 5.0

    def __post_init__(self) -> None:
        for name, (low, high) in LIMIT_BOUNDS.items():
            value = getattr(self, name)
            if not low <= value <= high:  # False for NaN too
                raise ValueError(f"{name} must be between {low:g} and {high:g}, not {value}")


# The range of each limit: every one bounds what requests may cost.
LIMIT_BOUNDS: dict[str, tuple[float, float]] = {
    "max_chars": (1, 1 << 20),
    "max_texts": (1, 1 << 16),
    "max_tokens": (1, 1 << 20),
    "max_body": (1, 1 << 30),
    "max_beam": (1, MAX_BEAM),
    "timeout": (0.001, 86400),
    "max_waiting": (1, 1 << 20),
    "batch_wait": (0, 1),
    "batch_cost": (1, 1 << 20),
    "max_heavy": (1, 64),
    "read_timeout": (0.1, 3600),
    "keep_alive": (0.1, 3600),
}


# What each limit is: the help of its flag
LIMIT_HELP = {
    "max_chars": "characters per text (413 beyond): a bound before tokenising",
    "max_texts": "texts per request (413 beyond)",
    "max_tokens": "source tokens of a request, its texts together (413 beyond)",
    "max_body": "bytes of request body (413 beyond)",
    "max_beam": "beam and n-best a request may ask for (422 beyond)",
    "timeout": "seconds a request may take (503 beyond; its decoding then stops)",
    "max_waiting": "texts queued or decoding, all requests together (503 beyond)",
    "batch_wait": "seconds to gather concurrent requests into one batch",
    "batch_cost": "most source tokens × beam decoded as one batch",
    "max_heavy": "requests costlier than batch_cost decoding at once (the rest queue)",
    "read_timeout": "seconds a client has to send a whole request, from when it connects or was "
    "last answered (the connection is closed beyond)",
    "keep_alive": "seconds an idle connection stays open after an answer",
}

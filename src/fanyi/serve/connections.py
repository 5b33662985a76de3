"""Connections nobody can hold open: a client that sends nothing, or sends its request slowly.

uvicorn closes a connection that idles after an answer (``timeout_keep_alive``), but not one
that never sends a request, nor one that sends it a byte at a time: a few hundred such clients
(a slowloris) held every connection the service had. :class:`TimedH11Protocol` gives a client
``read_timeout`` seconds to send a whole request (head and body), counted from when it connects
or was last answered, and closes the connection beyond. A request that has arrived is never
cut off: its decoding has ``Limits.timeout``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits

# The client's states in which its request has not fully arrived: none yet, or its body
RECEIVING = (h11.IDLE, h11.SEND_BODY)


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11) with a deadline for each request to arrive."""

    read_timeout = 10.0  # seconds; a subclass per service sets its own (``connection_settings``)
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._start_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._start_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def _start_deadline(self) -> None:
        self._stop_deadline()
        if not self.transport.is_closing():
            self._deadline = self.loop.call_later(self.read_timeout, self._read_timed_out)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _read_timed_out(self) -> None:
        """Close the connection unless its request has arrived (then it is being answered)."""
        self._deadline = None
        if not self.transport.is_closing() and self.conn.their_state in RECEIVING:
            self.transport.close()


def connection_settings(limits: Limits) -> dict[str, Any]:
    """uvicorn's settings for the connections of a service with ``limits``."""
    name = TimedH11Protocol.__name__
    protocol = type(name, (TimedH11Protocol,), {"read_timeout": limits.read_timeout})
    return {"http": protocol, "timeout_keep_alive": limits.keep_alive}

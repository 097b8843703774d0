"""uvicorn's HTTP protocol with a deadline for each request to arrive whole.

uvicorn times out an idle kept-alive connection, but not one that never
finishes sending its request: a thousand sockets sending a header line, or a
byte of their body, now and then (or nothing at all) were each held for as
long as their senders liked, and a server has only so many. Here a
connection must deliver each request, headers and body, within
:func:`request_seconds` of opening or of starting the request, or it is
closed. The answer is not timed (a search for a hint may take seconds). A
WebSocket's deadline ends once its handshake is complete, so a game socket is
never cut by this; an upgrade the handshake refuses (a body announced with it,
too many headers) is closed at the deadline, where uvicorn would hold it open.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: The environment variable through which ``serve --request-timeout`` reaches every server process.
REQUEST_TIMEOUT_VARIABLE = "ORIFLAMME_REQUEST_TIMEOUT"
#: Seconds a client has to send a request, headers and body, by default.
DEFAULT_REQUEST_SECONDS = 10.0


def request_seconds() -> float:
    """The deadline this process applies (``serve --request-timeout`` sets it for every worker through
    the environment; read at each connection, so that it holds whenever it was set)."""
    try:
        return float(os.environ.get(REQUEST_TIMEOUT_VARIABLE, DEFAULT_REQUEST_SECONDS))
    except ValueError:
        return DEFAULT_REQUEST_SECONDS


class RequestTimeoutProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` that closes a connection whose request has not arrived whole in time."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._disarm()  # an upgrade keeps its deadline until its handshake is done (_too_slow)
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(request_seconds(), self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, *_: Any) -> None:
        self._deadline = None
        if not self.transport.is_closing() and not self._upgraded():
            self.transport.close()

    def _upgraded(self) -> bool:
        """Whether the connection became a WebSocket whose handshake is complete (a game socket)."""
        protocol = self.transport.get_protocol()
        if protocol is self:
            return False
        done = getattr(protocol, "handshake_complete", None)  # the sans-io and wsproto protocols
        if isinstance(done, bool):
            return done
        event = getattr(protocol, "handshake_completed_event", None)  # the legacy websockets one
        return bool(event is not None and event.is_set())

"""uvicorn's HTTP protocol with a deadline for a request's headers.

uvicorn times out an idle kept-alive connection, but not one that never
finishes its headers: a thousand sockets sending a header line now and then
(or nothing at all) were each held for as long as their senders liked, and a
server has only so many. Here a connection must complete each request's
headers within :func:`header_seconds` of opening or of starting the request,
or it is closed. A WebSocket is past its headers once upgraded, so a game
socket is never cut by this.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: The environment variable through which ``serve --header-timeout`` reaches every server process.
HEADER_TIMEOUT_VARIABLE = "ORIFLAMME_HEADER_TIMEOUT"
#: Seconds a client has to send a request's headers, by default.
DEFAULT_HEADER_SECONDS = 10.0


def header_seconds() -> float:
    """The deadline this process applies (``serve --header-timeout`` sets it for every worker through
    the environment; read at each connection, so that it holds whenever it was set)."""
    try:
        return float(os.environ.get(HEADER_TIMEOUT_VARIABLE, DEFAULT_HEADER_SECONDS))
    except ValueError:
        return DEFAULT_HEADER_SECONDS


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` that closes a connection whose request headers are not complete in time."""

    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(header_seconds(), self._too_slow)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _too_slow(self, *_: Any) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

"""What a public server refuses: oversized bodies, floods of tables and connections, foreign pages.

A server on the open internet meets clients that are not our page: scripts
that create tables by the thousand, open hundreds of sockets on one table,
stream a body without end, or a page of another site that opens a
WebSocket with its visitors' browsers. :class:`ServerLimits` holds the
limits (``oriflamme serve`` sets them from its options) and :class:`Guard`
applies them; rates are counted with the ``limits`` package's moving windows,
concurrent connections here. Every refusal says what was wrong and, for a
rate, when to try again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:  # the package comes with the web extra; `oriflamme --help` must not need it
    from limits import RateLimitItem

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


#: Largest HTTP request body by default: a table's setup is well under 2 KiB.
MAX_BODY = 16 * 1024


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The limits of one server process (each process of a scaled server has its own)."""

    #: Largest HTTP request body, however it is sent (with a length or in chunks).
    max_body: int = MAX_BODY
    #: Tables one client address may create (``limits`` notation: ``20/minute``, ``100/hour``).
    tables_per_address: str = "20/minute"
    #: WebSocket connections one client address may open, and hold open at once.
    connects_per_address: str = "120/minute"
    open_connections_per_address: int = 64
    #: Connections (players and spectators) one table accepts at once.
    connections_per_table: int = 32
    #: Pages allowed to open a WebSocket, as origins (``https://oriflamme.example``). ``None``:
    #: only pages of the host the request was sent to. A client that sends no Origin (not a
    #: browser: a script, the benchmark) is not a page and is let through.
    allowed_origins: tuple[str, ...] | None = None

    def check(self) -> None:
        """Raise :class:`ValueError` naming the setting that cannot be used."""
        from limits import parse

        for name in ("tables_per_address", "connects_per_address"):
            value = getattr(self, name)
            try:
                parse(value)
            except ValueError:
                raise ValueError(
                    f"{name.replace('_', ' ')}: {value!r} is not a rate; write e.g. 20/minute or 100/hour"
                ) from None
        for name in ("max_body", "open_connections_per_address", "connections_per_table"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', ' ')} must be at least 1, got {getattr(self, name)}")
        for origin in self.allowed_origins or ():
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
                raise ValueError(f"allowed origin {origin!r} must look like https://host or http://host:port")


class Refused(Exception):
    """A request over a limit: ``message`` says which, ``retry_after`` when to try again (seconds)."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class Guard:
    """Counts what each client address does against :class:`ServerLimits`."""

    def __init__(self, limits: ServerLimits) -> None:
        from limits import parse
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        limits.check()
        self.limits = limits
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._tables: RateLimitItem = parse(limits.tables_per_address)
        self._connects: RateLimitItem = parse(limits.connects_per_address)
        self._open: dict[str, int] = {}

    def _hit(self, item: RateLimitItem, what: str, address: str) -> None:
        if not self._limiter.hit(item, what, address):
            reset, _ = self._limiter.get_window_stats(item, what, address)
            wait = max(1, int(reset - time.time()) + 1)
            raise Refused(f"too many {what} from your address (at most {item}); try again in {wait} s", wait)

    def create_table(self, address: str) -> None:
        """Count a table created from ``address``; :class:`Refused` over the rate."""
        self._hit(self._tables, "tables", address)

    def open_connection(self, address: str) -> None:
        """Count a connection opened from ``address``; :class:`Refused` over the rate or the number open."""
        if self._open.get(address, 0) >= self.limits.open_connections_per_address:
            raise Refused(
                f"too many connections open from your address (at most "
                f"{self.limits.open_connections_per_address}); close some tabs"
            )
        self._hit(self._connects, "connections", address)
        self._open[address] = self._open.get(address, 0) + 1

    def close_connection(self, address: str) -> None:
        left = self._open.get(address, 0) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Whether a WebSocket from a page of ``origin`` may connect to this server at ``host``."""
        if origin is None:
            return True  # not a browser: no page of another site is involved
        allowed = self.limits.allowed_origins
        if allowed is not None:
            return origin.rstrip("/") in {o.rstrip("/") for o in allowed}
        return host is not None and urlsplit(origin).netloc == host


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``max_body`` bytes is refused with 413 before the app runs.

    The body is read here first, counting bytes as they come, so a chunked
    upload (no Content-Length) is stopped at the limit, not read into memory
    whole; a Content-Length over the limit is refused without reading at all.
    """

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await _too_large(send, self.max_body)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                # The client went away before sending its body: let the app see that.
                await self.app(scope, _replay([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_body:
                await _too_large(send, self.max_body)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` first, then whatever the real one gives."""
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


async def _too_large(send: Send, max_body: int) -> None:
    body = json.dumps({"detail": f"request body too large (at most {max_body} bytes)"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})

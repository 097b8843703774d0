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

import ipaddress
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
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
    #: Hints and reviews (searches in the bot pool) one client address may ask for.
    analyses_per_address: str = "20/10 minutes"
    #: Reads of the heavier public answers (open tables, replays, save files, lobby summaries)
    #: one client address may make: a person clicks; a flood of them would take every table's time.
    reads_per_address: str = "120/minute"
    #: Log-in attempts (right or wrong) one client address may make, and those on one account name
    #: from anywhere: guessing a password is slow whether from one address or from many.
    logins_per_address: str = "20/10 minutes"
    logins_per_account: str = "10/10 minutes"
    #: Accounts one client address may register.
    accounts_per_address: str = "10/hour"
    #: Pages allowed to open a WebSocket, as origins (``https://oriflamme.example``). ``None``:
    #: only pages of the host the request was sent to. A client that sends no Origin (not a
    #: browser: a script, the benchmark) is not a page and is let through.
    allowed_origins: tuple[str, ...] | None = None

    def check(self) -> None:
        """Raise :class:`ValueError` naming the setting that cannot be used."""
        for name in (
            "tables_per_address",
            "connects_per_address",
            "analyses_per_address",
            "reads_per_address",
            "logins_per_address",
            "logins_per_account",
            "accounts_per_address",
        ):
            _rates(name, getattr(self, name))
        for name in ("max_body", "open_connections_per_address", "connections_per_table"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', ' ')} must be at least 1, got {getattr(self, name)}")
        for origin in self.allowed_origins or ():
            if _origin(origin) is None:
                raise ValueError(f"allowed origin {origin!r} must look like https://host or http://host:port")


def _rates(name: str, value: str) -> list[RateLimitItem]:
    """The rates of a setting (``20/minute`` or ``20/minute;100/hour``); :class:`ValueError` naming it."""
    from limits import parse_many

    wrong = f"{name.replace('_', ' ')}: {value!r} is not a rate; write e.g. 20/minute, 100/hour or both: 20/minute;100/hour"
    try:
        items = parse_many(value)
    except ValueError:
        raise ValueError(wrong) from None
    if not items:
        raise ValueError(wrong)
    if any(item.amount < 1 for item in items):
        raise ValueError(
            f"{name.replace('_', ' ')}: {value!r} allows nothing; each rate must allow at least 1"
        )
    return items


def _origin(text: str) -> tuple[str, str] | None:
    """An origin as browsers send it: (scheme, host[:port]) in lower case, without a default port."""
    parts = urlsplit(text.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"  # an IPv6 literal
    default = 80 if scheme == "http" else 443
    return scheme, host if port in (None, default) else f"{host}:{port}"


def _host(text: str, scheme: str) -> str:
    """A Host header as the origin's host[:port] would read (lower case, no default port)."""
    found = _origin(f"{scheme}://{text}")
    return found[1] if found is not None else text.lower()


def client_key(address: str) -> str:
    """What rates are counted by: the address, or its /64 network for IPv6 (one machine holds many)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


#: A /48 IPv6 network (one customer of most providers, or a site) may do this many times what
#: one /64 may: without it, a /48 held 65,536 /64 networks and as many quotas.
NETWORK_SHARE = 8


def network_key(address: str) -> str | None:
    """The /48 network of an IPv6 address (counted with :data:`NETWORK_SHARE` times the rate); None
    for IPv4 and for what is not an address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if not isinstance(ip, ipaddress.IPv6Address) or ip.ipv4_mapped is not None:
        return None
    return "net " + str(ipaddress.ip_network(f"{ip}/48", strict=False))


def _widened(items: list[RateLimitItem], times: int) -> list[RateLimitItem]:
    """The same rates, allowing ``times`` as many in each window."""
    return [type(item)(item.amount * times, item.multiples, item.namespace) for item in items]


class Refused(Exception):
    """A request over a limit: ``message`` says which, ``retry_after`` when to try again (seconds)."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class Guard:
    """Counts what each client address does against :class:`ServerLimits`."""

    def __init__(self, limits: ServerLimits) -> None:
        from limits.storage import MemoryStorage
        from limits.strategies import SlidingWindowCounterRateLimiter

        limits.check()
        self.limits = limits
        # Sliding-window counters expire with their windows, so the store holds only the addresses
        # seen lately, however many have come and gone.
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._tables = _rates("tables_per_address", limits.tables_per_address)
        self._connects = _rates("connects_per_address", limits.connects_per_address)
        self._analyses = _rates("analyses_per_address", limits.analyses_per_address)
        self._reads = _rates("reads_per_address", limits.reads_per_address)
        self._logins = _rates("logins_per_address", limits.logins_per_address)
        self._account_logins = _rates("logins_per_account", limits.logins_per_account)
        self._accounts = _rates("accounts_per_address", limits.accounts_per_address)
        self._open: dict[str, int] = {}
        self._allowed = (
            None if limits.allowed_origins is None else {_origin(o) for o in limits.allowed_origins}
        )

    def _hit(
        self,
        items: list[RateLimitItem],
        what: str,
        address: str,
        also: Sequence[tuple[RateLimitItem, str, str]] = (),
    ) -> None:
        counts = [(item, client_key(address), "your address") for item in items]
        network = network_key(address)
        if network is not None:
            counts += [(item, network, "your network") for item in _widened(items, NETWORK_SHARE)]
        counts += list(also)
        for item, key, whose in counts:
            if not self._limiter.test(item, what, key):
                reset, _ = self._limiter.get_window_stats(item, what, key)
                wait = max(1, int(reset - time.time()) + 1)
                raise Refused(f"too many {what} from {whose} (at most {item}); try again in {wait} s", wait)
        for item, key, _ in counts:
            self._limiter.hit(item, what, key)

    def create_table(self, address: str) -> None:
        """Count a table created from ``address``; :class:`Refused` over the rate."""
        self._hit(self._tables, "tables", address)

    def analysis(self, address: str) -> None:
        """Count a hint or a review asked from ``address``; :class:`Refused` over the rate."""
        self._hit(self._analyses, "hints and reviews", address)

    def log_in(self, address: str, account_key: str, device: str | None = None) -> None:
        """Count a log-in attempt from ``address`` on the account name ``account_key``. From a
        browser that logged into that account before (``device``, its device token's digest), the
        attempt counts against that device instead of the account, at the account's rate: failing
        on purpose elsewhere cannot lock the owner out, and a stolen device cookie guesses no
        faster than anybody may guess the account's password."""
        key, whose = (
            ("device:" + device, "this browser")
            if device
            else ("account:" + account_key, "anywhere on this account")
        )
        per_account = [(item, key, whose) for item in self._account_logins]
        self._hit(self._logins, "log-in attempts", address, per_account)

    def passkey_log_in(self, address: str) -> None:
        """Count a log-in by passkey begun from ``address``: one of its log-in attempts (no name is typed,
        so no account's count; each attempt needs a signature no guess can make)."""
        self._hit(self._logins, "log-in attempts", address)

    def register(self, address: str) -> None:
        """Count an account registered from ``address``."""
        self._hit(self._accounts, "new accounts", address)

    def read(self, address: str) -> None:
        """Count a read of a heavier answer from ``address``; :class:`Refused` over the rate."""
        self._hit(self._reads, "reads", address)

    def open_connection(self, address: str) -> None:
        """Count a connection opened from ``address``; :class:`Refused` over the rate or the number open."""
        for key, allowed, whose in self._open_keys(address):
            if self._open.get(key, 0) >= allowed:
                raise Refused(f"too many connections open from {whose} (at most {allowed}); close some tabs")
        self._hit(self._connects, "connections", address)
        for key, _, _ in self._open_keys(address):
            self._open[key] = self._open.get(key, 0) + 1

    def close_connection(self, address: str) -> None:
        for key, _, _ in self._open_keys(address):
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)

    def _open_keys(self, address: str) -> list[tuple[str, int, str]]:
        """What an open connection counts against: (key, connections allowed, whose they are)."""
        most = self.limits.open_connections_per_address
        keys = [(client_key(address), most, "your address")]
        network = network_key(address)
        if network is not None:
            keys.append((network, most * NETWORK_SHARE, "your network"))
        return keys

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Whether a WebSocket from a page of ``origin`` may connect to this server at ``host``."""
        if origin is None:
            return True  # not a browser: no page of another site is involved
        found = _origin(origin)  # "null" (a sandboxed page, a file) is no origin: refused
        if found is None:
            return False
        if self._allowed is not None:
            return found in self._allowed
        return host is not None and found[1] == _host(host, found[0])


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``max_body`` bytes is refused with 413 before the app runs.

    The body is read here first, counting bytes as they come, so a chunked
    upload (no Content-Length) is stopped at the limit, not read into memory
    whole; a Content-Length over the limit is refused without reading at all.
    """

    def __init__(self, app: ASGIApp, max_body: int, on_refused: Callable[[], None] | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.on_refused = on_refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await self._refuse(send)
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
                await self._refuse(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)

    async def _refuse(self, send: Send) -> None:
        if self.on_refused is not None:
            self.on_refused()
        await _too_large(send, self.max_body)


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
            # Closing makes the server stop reading the rest of the body, which may never end.
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

"""What every route of one server shares: its tables, limits, metrics and caches.

:func:`~.app.create_app` builds one :class:`ServerParts` and keeps it in the
app's state; each router (``routes_*``) asks for it with the :data:`Parts`
dependency, so that routes are plain functions of a module, not closures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection, Request

from .accounts import Accounts
from .addresses import address_of
from .cluster import Cluster
from .documents import Documents
from .friends import Social
from .guard import Guard, Refused
from .metrics import ServerMetrics
from .passkeys import Passkeys
from .ratings import Ratings
from .tables import TableRegistry


@dataclass
class ServerParts:
    """One server's shared pieces (one per process)."""

    registry: TableRegistry
    guard: Guard
    metrics: ServerMetrics
    cluster: Cluster | None
    #: Whether bots that search in several processes per move are offered.
    parallel_bots: bool
    #: The page, naming its scripts under the current static version.
    index_html: str
    #: Player accounts (optional for players: a seat is still a link).
    accounts: Accounts
    #: The accounts' ratings and ladders.
    ratings: Ratings
    #: The accounts' passkeys (a second way in).
    passkeys: Passkeys
    #: The accounts' friends, blocks and invitations by name.
    social: Social
    documents: Documents = field(default_factory=Documents)
    #: WebSocket connections open now.
    sockets: int = 0
    #: Store open and tables loaded (``/readyz``).
    ready: bool = False
    #: Each language's merged message catalog, as sent.
    catalogs: dict[str, bytes] = field(default_factory=dict)
    #: Reviews of finished games by (table, seat): a game's review does not change.
    reviews: dict[tuple[str, int], list[dict[str, Any]]] = field(default_factory=dict)
    #: Searches for people (hints, reviews) run one at a time per process ...
    analysis_slot: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    #: ... and this many wait for their turn.
    analyses_waiting: int = 0

    def refused(self, stop: Refused, limit: str) -> JSONResponse:
        """A request over a limit: 429, what was wrong, and when to try again."""
        self.metrics.refused.labels(limit).inc()
        return JSONResponse(
            {"detail": stop.message}, status_code=429, headers={"Retry-After": str(stop.retry_after or 60)}
        )

    def over_reads(self, request: Request) -> JSONResponse | None:
        """The 429 of a read over its address's rate (``--limit-reads``); None: the read may go on."""
        return self._over(request, self.guard.read, "reads_per_address")

    def over_creations(self, request: Request) -> JSONResponse | None:
        """The 429 of a table made or a seat taken over its address's rate; None: it may go on."""
        return self._over(request, self.guard.create_table, "tables_per_address")

    def _over(self, request: Request, count: Callable[[str], None], limit: str) -> JSONResponse | None:
        try:
            count(address_of(request.client))
        except Refused as stop:
            return self.refused(stop, limit)
        return None


def server_parts(connection: HTTPConnection) -> ServerParts:
    """The server's parts, for a route (HTTP or WebSocket) of its app."""
    parts: ServerParts = connection.app.state.parts
    return parts


#: A route's parameter of this type receives the server's parts.
Parts = Annotated[ServerParts, Depends(server_parts)]

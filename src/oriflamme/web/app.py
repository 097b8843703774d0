"""The ASGI application: pages, a small JSON API for tables, and the WebSocket for play.

``create_app`` builds the app around a :class:`~oriflamme.web.store.Storage`
(SQLite by default) and a bot runner; ``oriflamme serve`` runs it with uvicorn.
The routes live in routers by concern, each module listing its own:

- :mod:`.routes_site`: the page, ``/api/meta``, the catalogs, health, readiness, metrics;
- :mod:`.routes_tables`: making tables, the lobby, open tables, quick match, rematches;
- :mod:`.routes_documents`: a finished game's replay and save file;
- :mod:`.routes_analysis`: hints and reviews by the search;
- :mod:`.routes_socket`: the WebSocket of play (see :mod:`.protocol`);
- :mod:`.routes_accounts`: optional player accounts (see :mod:`.accounts`);
- :mod:`.routes_passkeys`: an account's passkeys, and logging in by one (see :mod:`.passkeys`);
- :mod:`.routes_friends`: their friends, blocks and invitations by name (see :mod:`.friends`).

What they share (the tables, limits, metrics, caches) is one
:class:`~.server_parts.ServerParts` in the app's state.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from . import (
    routes_accounts,
    routes_analysis,
    routes_documents,
    routes_friends,
    routes_passkeys,
    routes_site,
    routes_socket,
    routes_tables,
)
from .accounts import AccountError, Accounts
from .bot_runners import BotRunner, ExecutorBotRunner
from .cluster import Cluster
from .friends import Social
from .guard import BodyLimit, Guard, ServerLimits
from .live_table import LiveTable
from .mail import Mailer, MailSettings
from .memory_store import MemoryStore
from .metrics import ServerMetrics
from .passkeys import Passkeys
from .pg_store import PostgresStore
from .ratings import Ratings
from .server_parts import ServerParts
from .sqlite_store import SqliteStore
from .static_files import STATIC, ImmutableFiles, static_version
from .store import Storage
from .tables import DAMAGED, TableDamaged, TableRegistry


def create_app(
    db: str | Path | None = None,
    *,
    store: Storage | None = None,
    bot_runner: BotRunner | None = None,
    bot_delay: float = 0.8,
    limits: ServerLimits | None = None,
    idle_seconds: float | None = None,
    lease_seconds: float = 3.0,
    parallel_bots: bool = False,
    mail: MailSettings | None = None,
) -> FastAPI:
    """The web app. ``db``: an SQLite file (``:memory:`` allowed) or a ``postgresql://`` URL; ``store`` overrides it.

    ``limits``: what the server refuses (body size, rates, origins); see :mod:`.guard`.
    ``idle_seconds``: unfinished tables idle this long leave memory and are not loaded at start
    (see :meth:`TableRegistry.start`); ``None`` keeps every table.

    On PostgreSQL the server is one worker of a cluster (:mod:`.cluster`): any number of
    processes may share the database, each table played by the holder of its lease, which
    another process takes over ``lease_seconds`` after its holder stopped renewing it.

    ``mail``: the SMTP server through which players who ask for it get "your turn" and "game over"
    mail (:mod:`.mail`); None sends none.

    ``parallel_bots`` offers the levels that search in several processes per move
    (``ismcts:master``): off by default, since each such move takes several cores of a shared server.
    """
    store = store or _store(db)
    cluster = None
    if isinstance(store, PostgresStore):
        cluster = Cluster(store, lease_seconds=lease_seconds, renew_seconds=lease_seconds / 4)
    limits = limits or ServerLimits()
    registry = TableRegistry(store, bot_runner or ExecutorBotRunner(), bot_delay, cluster)
    registry.parallel_bots = parallel_bots
    registry.max_connections_per_table = limits.connections_per_table
    registry.idle_seconds = idle_seconds
    metrics = ServerMetrics(
        tables=lambda: len(registry.tables),
        connections=lambda: parts.sockets,
        bots_thinking=lambda: len(registry.bot_tasks),
        tables_owned=lambda: sum(1 for t in registry.tables.values() if t.owned),
    )
    registry.on_broadcast = metrics.action_broadcast
    registry.on_refused = lambda limit: metrics.refused.labels(limit).inc()
    # The page names its scripts and styles under a path that changes whenever one of them does,
    # so browsers may keep them for a year and still never run an old module with a new page.
    version = static_version()
    index_html = (
        (STATIC / "index.html").read_text(encoding="utf-8").replace("/static/", f"/static/{version}/")
    )
    accounts, ratings, mailer = Accounts(store), Ratings(store), Mailer(store, mail)
    parts = ServerParts(
        registry,
        Guard(limits),
        metrics,
        cluster,
        parallel_bots,
        index_html,
        accounts,
        ratings,
        Passkeys(store),
        Social(store),
    )

    async def game_over(table: LiveTable) -> None:
        await ratings.rate_table(table)
        await mailer.game_over(table)

    registry.on_game_over = game_over
    registry.on_turn = mailer.your_turn if mail is not None else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await registry.start()
        # Games a stopped process finished but did not rate (rated once, whichever process does it).
        registry.spawn(ratings.rate_missed(registry.get))
        sending = asyncio.create_task(mailer.run_forever()) if mail is not None else None
        # What was loaded at start lives as long as the server: keep it out of every collection.
        gc.freeze()
        parts.ready = True
        try:
            yield
        finally:
            parts.ready = False
            if sending is not None:
                sending.cancel()
            await registry.close()
            await store.close()

    app = FastAPI(title="Oriflamme", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.parts = parts
    # The pieces tests and tools reach for by name.
    app.state.registry = registry
    app.state.guard = parts.guard
    app.state.metrics = metrics
    app.state.documents = parts.documents
    app.add_exception_handler(TableDamaged, _damaged_table)  # type: ignore[arg-type]
    app.add_exception_handler(AccountError, routes_accounts.account_error)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit, max_body=limits.max_body, on_refused=metrics.refused.labels("max_body").inc)
    # Scripts, styles, catalogs and API answers are text: gzip makes them a quarter of their size.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.middleware("http")(_security_headers)
    for module in (
        routes_site,
        routes_tables,
        routes_documents,
        routes_analysis,
        routes_socket,
        routes_accounts,
        routes_passkeys,
        routes_friends,
    ):
        app.include_router(module.router)
    app.mount(f"/static/{version}", ImmutableFiles(directory=STATIC), name="static-versioned")
    # The same files at their plain path, checked with the server at each use (pages of an older
    # version, links from elsewhere).
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _store(db: str | Path | None) -> Storage:
    """The store ``db`` names: memory (None), PostgreSQL (a ``postgresql://`` URL), or an SQLite file."""
    if db is None:
        return MemoryStore()
    if str(db).startswith(("postgresql://", "postgres://")):
        return PostgresStore(str(db))
    return SqliteStore(db)


async def _damaged_table(request: Request, exc: TableDamaged) -> JSONResponse:
    """A link of a table set aside as damaged: said so (409), not "no table has this link"."""
    return JSONResponse({"detail": DAMAGED}, status_code=409)


async def _security_headers(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    response = await call_next(request)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'"
    )
    return response

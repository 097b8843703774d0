"""The ASGI application: pages, a small JSON API for tables, and the WebSocket for play.

``create_app`` builds the app around a :class:`~oriflamme.web.store.Storage`
(SQLite by default) and a bot runner; ``oriflamme serve`` runs it with uvicorn.

HTTP routes::

    GET  /                         the lobby (your tables, a new table)
    GET  /play/TOKEN, /watch/TOKEN the table page, as a seat or as a spectator
    GET  /replay/TOKEN             the replay viewer of a finished game
    GET  /api/meta                 decks, cards, bots, languages
    POST /api/tables               create a table -> invite links
    POST /api/lobby                summaries of the tables behind a list of tokens
    GET  /api/replay/TOKEN         every step of a finished game, as that token may see it
    GET  /api/save/TOKEN           a finished game as a save file (replay, review)
    POST /api/rematch              the next game with the same seats -> the asker's new link
    GET  /api/open                 open tables, with their free seats
    POST /api/open/join            take a free seat at an open table -> its link
    POST /api/quick-match          a seat now, at an open table or a new one -> its link
    POST /api/hint                 a person's options ranked by the search (games against bots)
    GET  /api/review/TOKEN         a person's moves in a finished game, judged by the search
    GET  /locales/LANG.json        the message catalog of a language
    GET  /healthz, /readyz         liveness, and readiness (store open, tables loaded)
    GET  /metrics                  Prometheus metrics (see oriflamme.web.metrics)
    WS   /ws                       play (see oriflamme.web.protocol)
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from .. import tutorial
from ..bots import BOT_KINDS, search_processes
from ..bots.registry import available_kinds
from ..bots.review import move_facts
from ..engine.action_text import action_text
from ..engine.cards import KINDS, SLUGS, TWIN
from ..engine.options import RuleOptions
from ..engine.recipes import PRESETS
from ..engine.seeds import derive_seed
from ..notation import savefile
from . import analysis_jobs
from .api_bodies import CreateTableBody, HintBody, JoinOpenBody, LobbyBody, QuickMatchBody, RematchBody
from .bot_runners import BotRunner, ExecutorBotRunner, plain_view
from .client import Client
from .cluster import Cluster
from .documents import Documents
from .guard import BodyLimit, Guard, Refused, ServerLimits, client_key, network_key
from .live_table import LiveTable
from .memory_store import MemoryStore
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .metrics import ServerMetrics
from .pg_store import PostgresStore
from .protocol import error_message
from .static_files import STATIC, ImmutableFiles, static_version
from .store import SqliteStore, Storage
from .table_documents import replay_document, save_seats, table_summary
from .table_game import table_setup
from .tables import DAMAGED, LANGUAGES, SeatRequest, SetupProblem, TableDamaged, TableRegistry, maker_digest

log = logging.getLogger("oriflamme.web")

WEB_LOCALES = Path(str(resources.files("oriflamme.web") / "locales"))
#: The catalogs shared with the terminal interface (absent until they exist).
CORE_LOCALES = Path(str(resources.files("oriflamme.i18n")))


#: A quick match's table gives each person this long per decision, so nobody waits on an absent stranger.
QUICK_MATCH_TURN_SECONDS = 60
#: Hints and reviews waiting for the one analysis slot of a process, at most: beyond, "busy".
MAX_WAITING_ANALYSES = 8


def _catalog(lang: str) -> dict[str, Any]:
    """The shared catalog of ``lang`` with the web page's own keys on top."""
    merged: dict[str, Any] = {}
    for folder in (CORE_LOCALES, WEB_LOCALES):
        path = folder / f"{lang}.json"
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                log.exception("catalog %s is not valid JSON", path)
                continue
            if isinstance(data, dict):
                merged.update(data)
    return merged


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
) -> FastAPI:
    """The web app. ``db``: an SQLite file (``:memory:`` allowed) or a ``postgresql://`` URL; ``store`` overrides it.

    ``limits``: what the server refuses (body size, rates, origins); see :mod:`.guard`.
    ``idle_seconds``: unfinished tables idle this long leave memory and are not loaded at start
    (see :meth:`TableRegistry.start`); ``None`` keeps every table.

    On PostgreSQL the server is one worker of a cluster (:mod:`.cluster`): any number of
    processes may share the database, each table played by the holder of its lease, which
    another process takes over ``lease_seconds`` after its holder stopped renewing it.

    ``parallel_bots`` offers the levels that search in several processes per move
    (``ismcts:master``): off by default, since each such move takes several cores of a shared server.
    """
    if store is None:
        if db is None:
            store = MemoryStore()
        elif str(db).startswith(("postgresql://", "postgres://")):
            store = PostgresStore(str(db))
        else:
            store = SqliteStore(db)
    cluster = None
    if isinstance(store, PostgresStore):
        cluster = Cluster(store, lease_seconds=lease_seconds, renew_seconds=lease_seconds / 4)
    limits = limits or ServerLimits()
    guard = Guard(limits)
    registry = TableRegistry(store, bot_runner or ExecutorBotRunner(), bot_delay, cluster)
    registry.parallel_bots = parallel_bots
    registry.max_connections_per_table = limits.connections_per_table
    registry.idle_seconds = idle_seconds
    sockets = [0]
    ready = [False]
    metrics = ServerMetrics(
        tables=lambda: len(registry.tables),
        connections=lambda: sockets[0],
        bots_thinking=lambda: len(registry.bot_tasks),
        tables_owned=lambda: sum(1 for t in registry.tables.values() if t.owned),
    )
    registry.on_broadcast = metrics.action_broadcast
    registry.on_refused = lambda limit: metrics.refused.labels(limit).inc()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await registry.start()
        # What was loaded at start lives as long as the server: keep it out of every collection.
        gc.freeze()
        ready[0] = True
        try:
            yield
        finally:
            ready[0] = False
            await registry.close()
            await store.close()

    app = FastAPI(title="Oriflamme", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.registry = registry

    @app.exception_handler(TableDamaged)
    async def damaged_table(request: Request, exc: TableDamaged) -> JSONResponse:
        """A link of a table set aside as damaged: said so (409), not "no table has this link"."""
        return JSONResponse({"detail": DAMAGED}, status_code=409)

    app.state.guard = guard
    app.state.metrics = metrics
    app.add_middleware(BodyLimit, max_body=limits.max_body, on_refused=metrics.refused.labels("max_body").inc)
    # Scripts, styles, catalogs and API answers are text: gzip makes them a quarter of their size.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    catalogs: dict[str, bytes] = {}

    @app.middleware("http")
    async def security_headers(
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

    # The page names its scripts and styles under a path that changes whenever one of them does,
    # so browsers may keep them for a year and still never run an old module with a new page.
    version = static_version()
    index_html = (
        (STATIC / "index.html").read_text(encoding="utf-8").replace("/static/", f"/static/{version}/")
    )

    def page() -> HTMLResponse:
        return HTMLResponse(index_html, headers={"Cache-Control": "no-cache"})

    def refused(stop: Refused, limit: str) -> JSONResponse:
        """A request over a limit: 429, what was wrong, and when to try again."""
        metrics.refused.labels(limit).inc()
        return JSONResponse(
            {"detail": stop.message}, status_code=429, headers={"Retry-After": str(stop.retry_after or 60)}
        )

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> HTMLResponse:
        return page()

    @app.get("/play/{token}", include_in_schema=False)
    @app.get("/watch/{token}", include_in_schema=False)
    @app.get("/replay/{token}", include_in_schema=False)
    async def table_page(token: str) -> HTMLResponse:
        return page()

    app.mount(f"/static/{version}", ImmutableFiles(directory=STATIC), name="static-versioned")
    # The same files at their plain path, checked with the server at each use (pages of an older
    # version, links from elsewhere).
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", response_model=None)
    async def readyz() -> dict[str, Any] | JSONResponse:
        if not ready[0]:
            return JSONResponse({"status": "starting or stopping"}, status_code=503)
        answer: dict[str, Any] = {"status": "ready", "tables": len(registry.tables), "pid": os.getpid()}
        if cluster is not None:
            answer["worker"] = cluster.worker
            answer["owned"] = sum(1 for t in registry.tables.values() if t.owned)
        return answer

    @app.get("/metrics")
    async def prometheus_metrics() -> Response:
        return Response(metrics.render(), media_type=METRICS_CONTENT_TYPE)

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "decks": ["base", "ablaze", "alliance", "random"],
            # The presets' kinds, for a deck chosen card by card in the lobby.
            "presets": {name: [SLUGS[k] for k in kinds] for name, kinds in PRESETS.items()},
            "rules": RuleOptions().to_dict(),
            "cards": [
                {"slug": k.slug, "box": k.box, "character": k.character} for k in KINDS if k.id != TWIN
            ],
            "bots": [
                {
                    "kind": kind,
                    "levels": [lv for lv in levels if parallel_bots or search_processes(kind, lv) == 1],
                    "default": default,
                }
                for kind, (_, levels, default) in BOT_KINDS.items()
                if kind in available_kinds()
            ],
            "languages": list(LANGUAGES),
            # The guided first game's table, as the lobby asks for it (POST /api/tables).
            "tutorial": {
                "players": tutorial.SETUP.players,
                "deck": "base",
                "seed": tutorial.SETUP.seed,
                "first_player": tutorial.SETUP.first_player,
                "bots": ["tutor"] * (tutorial.SETUP.players - 1),
            },
        }

    @app.get("/locales/{lang}.json")
    async def catalog(lang: str) -> Response:
        if lang not in LANGUAGES:
            raise HTTPException(404, "unknown language")
        body = catalogs.get(lang)
        if body is None:
            body = catalogs[lang] = json.dumps(_catalog(lang), ensure_ascii=False).encode()
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})

    @app.post("/api/tables", response_model=None)
    async def create_table(body: CreateTableBody, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            guard.create_table(_address(request.client))
        except Refused as stop:
            return refused(stop, "tables_per_address")
        try:
            table = await registry.create(
                players=body.players,
                deck=body.deck,
                seats=[SeatRequest(s.kind, s.name, s.bot, s.lang) for s in body.seats],
                seed=body.seed,
                first_player=body.first_player,
                rules=body.rules,
                turn_seconds=body.turn_seconds,
                open=body.open,
                owner=_maker(_address(request.client)),
            )
        except SetupProblem as exc:
            raise HTTPException(400, str(exc)) from None
        r = table.record
        if r.open:
            registry.open_seats.note(r.id, _person(request))
        return {
            "table": r.id,
            "host": r.host_token,
            "spectator": r.spectator_token,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "bot": s.bot,
                    # At an open table the creator gets their own link only: the strangers who
                    # take the other seats are given links of their own (OpenSeats.take).
                    "token": s.token if s.kind == "person" and (i == 0 or r.host_sees_links) else None,
                }
                for i, s in enumerate(r.seats)
            ],
        }

    documents = Documents()
    app.state.documents = documents

    def over_reads(request: Request) -> JSONResponse | None:
        """The 429 of a read over its address's rate (``--limit-reads``); None: the read may go on."""
        try:
            guard.read(_address(request.client))
        except Refused as stop:
            return refused(stop, "reads_per_address")
        return None

    @app.post("/api/lobby", response_model=None)
    async def lobby(body: LobbyBody, request: Request) -> dict[str, Any] | JSONResponse:
        if (over := over_reads(request)) is not None:
            return over
        out: list[dict[str, Any]] = []
        for token in dict.fromkeys(body.tokens):
            try:
                found = await registry.resolve(token)
            except TableDamaged:
                continue  # its own link says why, when opened
            if found is None:
                continue
            table, ref = found
            out.append(table_summary(table, token, ref.role, ref.seat))
        return {"tables": out}

    @app.get("/api/replay/{token}")
    async def replay(token: str, request: Request) -> Response:
        if (over := over_reads(request)) is not None:
            return over
        found = await registry.resolve(token) if len(token) <= 64 else None
        if found is None:
            raise HTTPException(404, "no table has this link")
        table, ref = found
        if ref.role == "bot":
            raise HTTPException(404, "no table has this link")
        if not table.game.is_over():
            raise HTTPException(409, "the game is not over yet")
        seat = ref.seat if ref.role == "person" else None
        text = await documents.get(("replay", table.record.id, seat), partial(replay_document, table, seat))
        return Response(text, media_type="application/json")

    @app.get("/api/open", response_model=None)
    async def open_tables(request: Request) -> dict[str, Any] | JSONResponse:
        """Tables anyone may sit at, oldest first, with their free seats."""
        if (over := over_reads(request)) is not None:
            return over
        listed = await registry.store.open_tables()
        return {
            "tables": [
                {
                    "table": t.record.id,
                    "deck": t.record.deck,
                    "players": t.record.players,
                    "rules": t.record.rules,
                    "turn_seconds": t.record.turn_seconds,
                    "created": t.record.created,
                    "free": len(t.free),
                    "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in t.record.seats],
                }
                for t in listed
            ]
        }

    def seated(table: LiveTable, seat: int, token: str) -> dict[str, Any]:
        return {"table": table.record.id, "seat": seat, "token": token}

    @app.post("/api/open/join", response_model=None)
    async def join_open(body: JoinOpenBody, request: Request) -> dict[str, Any] | JSONResponse:
        """Take a free seat at an open table (the one asked for, or the oldest): its link.

        Counted like creating a table, so that one client cannot take every free seat there is."""
        try:
            guard.create_table(_address(request.client))
        except Refused as stop:
            return refused(stop, "tables_per_address")
        address = _person(request)
        if body.table is not None and registry.open_seats.seated_at(body.table, address):
            raise HTTPException(409, "you have a seat at this table already")
        # Without a table named, the oldest one is chosen as a quick match chooses it.
        longest = QUICK_MATCH_TURN_SECONDS if body.table is None else None
        found = await registry.open_seats.take(body.table, address, longest_turn=longest)
        if found is None:
            raise HTTPException(404 if body.table is None else 409, "no free seat at an open table")
        return seated(*found)

    @app.post("/api/quick-match", response_model=None)
    async def quick_match(body: QuickMatchBody, request: Request) -> dict[str, Any] | JSONResponse:
        """A seat now: at the oldest open table with one free, else at a new open table (you, a seat
        for the next person to ask, and a bot; a bot plays for an absent person after a minute)."""
        try:
            guard.create_table(_address(request.client))
        except Refused as stop:
            return refused(stop, "tables_per_address")
        address = _person(request)
        found = await registry.open_seats.take(address=address, longest_turn=QUICK_MATCH_TURN_SECONDS)
        if found is not None:
            return seated(*found)
        lang = body.lang if body.lang in LANGUAGES else "en"
        seats = [
            SeatRequest("person", "", None, lang),
            SeatRequest("person", "", None, lang),
            SeatRequest("bot", "", "heuristic", lang),
        ]
        table = await registry.create(
            3,
            "base",
            seats,
            rules=None,
            turn_seconds=QUICK_MATCH_TURN_SECONDS,
            open=True,
            owner=_maker(_address(request.client)),
        )
        # Stored with seat 1 taken: an open table's first seat is its creator's.
        registry.open_seats.note(table.record.id, address)
        return seated(table, 0, table.record.seats[0].token)

    @app.post("/api/rematch", response_model=None)
    async def rematch(body: RematchBody, request: Request) -> dict[str, Any] | JSONResponse:
        """The next game with the same seats, once this one is over; everyone asking gets the same one.

        Answers the asker's own link at the new table; the others at the old table are told theirs.
        """
        found = await registry.resolve(body.token)
        if found is None or found[1].role == "bot":
            raise HTTPException(404, "no table has this link")
        table, ref = found
        if ref.role not in ("person", "host"):
            raise HTTPException(403, "only the players can ask for a rematch")
        if not table.game.is_over():
            raise HTTPException(409, "the game is not over yet")
        if await registry.rematch_of(table) is None:
            try:
                guard.create_table(_address(request.client))
            except Refused as stop:
                return refused(stop, "tables_per_address")
        try:
            new = await registry.rematch(table, _maker(_address(request.client)))
        except SetupProblem as exc:
            raise HTTPException(409, str(exc)) from None
        r = new.record
        if ref.role == "host":
            return {"table": r.id, "token": r.host_token, "role": "host", "seat": None}
        assert ref.seat is not None  # a person's link names a seat
        return {"table": r.id, "token": r.seats[ref.seat].token, "role": "person", "seat": ref.seat}

    analysis_slot = asyncio.Semaphore(1)
    waiting = [0]

    async def analysed(request: Request, job: Callable[..., Any], *args: Any) -> Any:
        """Run a search for a person: counted against their address, one at a time per process, and
        in turn with the bots' moves by the asker's address (:mod:`.bot_share`), so that hints and
        reviews never take more than one of the bot pool's workers, nor their fair share, from the tables."""
        address = _address(request.client)
        guard.analysis(address)
        if waiting[0] >= MAX_WAITING_ANALYSES:
            raise Refused("the server is busy with other hints and reviews; try again in a minute", 60)
        waiting[0] += 1
        try:
            async with analysis_slot:
                runner = registry.bot_runner
                asker = maker_digest(_maker(address))
                return await registry.bot_share.run(asker, lambda: runner.analyse(job, *args))
        finally:
            waiting[0] -= 1

    @app.post("/api/hint", response_model=None)
    async def hint(body: HintBody, request: Request) -> dict[str, Any] | JSONResponse:
        """The search's view of the person's decision now: every option with its win chance.

        Only at a table where the person plays against bots alone (among people a hint would be
        help nobody else has), only for their own decision, from their own view.
        """
        found = await registry.resolve(body.token)
        if found is None or found[1].role != "person":
            raise HTTPException(404, "no seat has this link")
        table, ref = found
        seat = ref.seat
        assert seat is not None
        if any(s.kind == "person" for i, s in enumerate(table.record.seats) if i != seat):
            raise HTTPException(403, "hints are for games against bots only")
        g = table.game
        if g.is_over() or g.current_player() != seat:
            raise HTTPException(409, "it is not your decision")
        if body.state != table.state:
            raise HTTPException(
                409, f"the hint was asked at state {body.state}; the game is at {table.state}"
            )
        view = plain_view(g.view(seat))
        try:
            values = await analysed(
                request, analysis_jobs.hint, view, derive_seed("hint", table.record.seed, body.state)
            )
        except Refused as stop:
            return refused(stop, "analyses")
        if table.state != body.state:
            raise HTTPException(409, "the game moved on while the search thought")
        options = [
            {"action": action_text(g, a), "win": win, "visits": visits, "move": move_facts(g, a).to_dict()}
            for a, win, visits in values
        ]
        return {"state": body.state, "level": analysis_jobs.LEVEL, "options": options}

    @app.get("/api/review/{token}", response_model=None)
    async def review(token: str, request: Request) -> dict[str, Any] | JSONResponse:
        """A person's moves in a finished game, each with the move the search preferred and its cost."""
        found = await registry.resolve(token) if len(token) <= 64 else None
        if found is None or found[1].role != "person":
            raise HTTPException(404, "no seat has this link")
        table, ref = found
        seat = ref.seat
        assert seat is not None
        if not table.game.is_over():
            raise HTTPException(409, "the game is not over yet")
        key = (table.record.id, seat)
        rows = reviews.get(key)
        if rows is None:
            try:
                rows = await analysed(
                    request,
                    analysis_jobs.review,
                    table_setup(table.record),
                    list(table.actions),
                    seat,
                )
            except Refused as stop:
                return refused(stop, "analyses")
            reviews[key] = rows
            while len(reviews) > 256:
                reviews.pop(next(iter(reviews)))
        return {"seat": seat, "level": analysis_jobs.LEVEL, "moves": rows}

    reviews: dict[tuple[str, int], list[dict[str, Any]]] = {}

    @app.get("/api/save/{token}")
    async def save_file(token: str, request: Request) -> Response:
        """A finished game as a save file (``oriflamme replay`` / ``oriflamme review`` read it).

        Only once the game is over: the file holds the seed, from which every card can be dealt again.
        """
        if (over := over_reads(request)) is not None:
            return over
        found = await registry.resolve(token) if len(token) <= 64 else None
        if found is None or found[1].role == "bot":
            raise HTTPException(404, "no table has this link")
        table = found[0]
        if not table.game.is_over():
            raise HTTPException(409, "the game is not over yet: it can be downloaded when it ends")
        body = await documents.get(
            ("save", table.record.id), lambda: savefile.dumps(table.game, seats=save_seats(table))
        )
        name = f"oriflamme-{table.record.id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.websocket("/ws")
    async def play(ws: WebSocket) -> None:
        if not guard.origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
            # A page of another site: refused at the handshake, before it learns anything.
            metrics.refused.labels("origin").inc()
            await ws.close(code=1008)
            return
        address = _address(ws.client)
        await ws.accept()
        try:
            guard.open_connection(address)
        except Refused as stop:
            metrics.refused.labels("connections_per_address").inc()
            await ws.send_text(error_message("too_many_connections", stop.message))
            await ws.close(code=1008)
            return
        client = Client(ws.send_text, ws.close, address)
        sockets[0] += 1
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                received = time.perf_counter()
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                await registry.handle(client, data, received)
                if client.errors > 100:
                    break  # a client that only sends garbage is not worth a connection
        except WebSocketDisconnect:
            pass
        finally:
            sockets[0] -= 1
            guard.close_connection(address)
            registry.disconnect(client)

    return app


def _maker(address: str) -> str:
    """Whose turns at the bot processes a table's search bots take (:mod:`.bot_share`): the address,
    or for IPv6 its /48 network, so that a /48's many /64 networks do not get as many shares."""
    return network_key(address) or client_key(address)


def _person(request: Request) -> str:
    """Who asks for a seat at an open table, as far as an address tells: an IPv6 address's /48 (as the
    bot share counts makers: one site holds 65,536 /64 networks), else its :func:`~.guard.client_key`;
    or "" (nobody in particular) for a loopback address, where every local player looks the same."""
    address = _address(request.client)
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(address).is_loopback:
            return ""
    return _maker(address)


def _address(client: Any) -> str:
    """The client's address (behind a trusted proxy, uvicorn puts the real one here: see --forwarded-allow-ips)."""
    return str(client.host) if client is not None and client.host else "unknown"

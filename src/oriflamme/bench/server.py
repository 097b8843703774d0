"""``oriflamme bench-server``: many concurrent tables of bot clients against a real server.

A load benchmark, not a test. It starts ``oriflamme serve`` in a subprocess
(a fresh database in a temporary folder), creates N tables whose seats are
all "people", and drives every seat from this process over a real WebSocket
with a client-side random bot. A seat that must decide waits a think time
(drawn uniformly, like a person or a bot thinking), sends its action, and the
benchmark measures the time from sending it to receiving the broadcast of the
resulting state: at the acting seat (the latency a player feels) and at every
seat of the table. Thinking time is not part of any measurement.

Everything runs on loopback: the clients share the machine's cores with the
server, so the numbers are an upper bound of what the server alone costs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..stats import percentile
from .load_report import LoadReport
from .load_server import (
    TABLES_PER_ACCOUNT,
    drop_database,
    post,
    problems,
    rated_games,
    register_and_claim,
    scratch_database,
    wait_for,
)
from .processes import busiest_worker, free_port, tree_cpu_seconds, tree_rss_bytes

#: The goal stated for the server on a 2-core machine.
TARGET_TABLES = 200
TARGET_P95_MS = 50.0


@dataclass
class _Table:
    tokens: list[str]
    #: The server's id of the table.
    table_id: str = ""
    #: state number -> perf_counter time at which the action producing it was sent
    sent: dict[int, float] = field(default_factory=dict)
    #: state number -> perf_counter time at which a seat of this table was first shown it
    shown: dict[int, float] = field(default_factory=dict)


class _Disconnected(Exception):
    """The server closed the connection (it was killed, say)."""


class _Run:
    def __init__(
        self,
        base: str,
        tables: int,
        players: int,
        seconds: float,
        think: tuple[float, float],
        seed: int,
        people: int | None = None,
        bot: str = "heuristic",
        rated: float = 0.0,
        names: str = "Bench",
    ):
        self.base = base
        #: The share of tables whose seats accounts hold (rated games), and how their names begin.
        self.rated = rated
        self.names = names
        self.accounts = 0
        self.rated_tables = 0
        #: Awaited once every seat has joined, before the measured window opens (the other client
        #: processes' seats joining too, with several).
        self.ready: Callable[[], Awaitable[None]] | None = None
        #: Seats driven from here (people); the others are the server's own bots.
        self.people = players if people is None else people
        self.bot = bot
        self.ws_url = base.replace("http", "ws", 1) + "/ws"
        self.n_tables = tables
        self.players = players
        self.seconds = seconds
        self.think = think
        self.rng = random.Random(seed)
        self.tables: list[_Table] = []
        self.actor_latencies: list[float] = []
        self.seat_latencies: list[float] = []
        self.actions = 0
        self.messages = 0
        self.errors = 0
        self.error_codes: dict[str, int] = {}
        self.reconnects = 0
        self.killed_at: float | None = None
        self.finished = 0
        self.start = asyncio.Event()
        self.deadline = 0.0
        self.joined = 0
        self.all_joined = asyncio.Event()
        self.started_at = self.ended_at = 0.0
        self.last_error = ""
        self.on_start: Callable[[], None] | None = None
        self.on_end: Callable[[], None] | None = None

    async def create_tables(self) -> None:
        seats = [
            {"kind": "person", "name": f"seat {i + 1}"}
            if i < self.people
            else {"kind": "bot", "bot": self.bot}
            for i in range(self.players)
        ]
        for i in range(self.n_tables):
            body = {"players": self.players, "deck": "base", "seed": i, "seats": seats}
            data = await asyncio.to_thread(post, self.base + "/api/tables", body)
            self.tables.append(_Table([s["token"] for s in data["seats"][: self.people]], data["table"]))
        rated = self.tables[: round(self.rated * self.n_tables)]
        if rated and self.people == self.players:
            await self.hold_seats_with_accounts(rated)
            self.rated_tables = len(rated)

    async def hold_seats_with_accounts(self, tables: list[_Table]) -> None:
        """Register accounts and let them claim every seat of ``tables`` (what makes a game rated).

        Each account holds a seat at up to :data:`TABLES_PER_ACCOUNT` tables (a player of games
        over days has several going), never two seats of one table."""
        seats = len(tables) * self.players
        self.accounts = self.players * -(-seats // (self.players * TABLES_PER_ACCOUNT))
        holdings: list[list[str]] = [[] for _ in range(self.accounts)]
        for i, table in enumerate(tables):
            for seat, token in enumerate(table.tokens):
                holdings[(i * self.players + seat) % self.accounts].append(token)
        sessions = asyncio.Semaphore(4)

        async def one(n: int) -> None:
            async with sessions:
                await asyncio.to_thread(register_and_claim, self.base, f"{self.names}{n}", holdings[n])

        await asyncio.gather(*(one(n) for n in range(self.accounts)))

    async def seat(self, table: _Table, seat: int, rng: random.Random) -> None:
        import websockets

        first = True
        while True:
            try:
                async with websockets.connect(self.ws_url, max_size=2**22, open_timeout=60) as ws:
                    await ws.send(json.dumps({"type": "join", "token": table.tokens[seat]}))
                    msg = await self._next_state(ws, 0, table)
                    if msg is None:
                        return
                    if first:
                        first = False
                        self.joined += 1
                        if self.joined == self.n_tables * self.people:
                            self.all_joined.set()
                        await self.start.wait()
                        # People come in over the first second, not all in one millisecond: otherwise
                        # the measured window opens with every table's action at once, which no real
                        # audience does.
                        await asyncio.sleep(rng.uniform(0.0, 1.0))
                    await self._play(ws, table, seat, rng, msg)
                    return
            except (OSError, _Disconnected, websockets.WebSocketException):
                # The server went away (or a worker still starting answered the handshake badly): come
                # back, as a browser does, unless the run is over.
                if first or time.perf_counter() > self.deadline:
                    return
                self.reconnects += 1
                await asyncio.sleep(0.1)

    async def _next_state(self, ws: Any, wanted: int, table: _Table | None = None) -> dict[str, Any] | None:
        async for raw in ws:
            self.messages += 1
            msg: dict[str, Any] = json.loads(raw)
            if msg["type"] == "error":
                self.errors += 1
                code = str(msg.get("code"))
                self.error_codes[code] = self.error_codes.get(code, 0) + 1
                self.last_error = f"{msg.get('code')}: {msg.get('message')}"
                return None
            if msg["type"] == "state":
                if table is not None:
                    table.shown.setdefault(msg["state"], time.perf_counter())
                if msg["state"] >= wanted:
                    return msg
        raise _Disconnected

    async def _play(self, ws: Any, table: _Table, seat: int, rng: random.Random, msg: dict[str, Any]) -> None:
        """Play a seat until the end or the deadline, starting from ``msg`` (a state just received)."""
        while True:
            state = msg["state"]
            sent = table.sent.get(state)
            if sent is not None:
                self.seat_latencies.append(time.perf_counter() - sent)
            if msg["result"] is not None:
                if seat == 0:
                    self.finished += 1
                return
            if time.perf_counter() > self.deadline:
                return
            if msg["legal"]:
                await asyncio.sleep(rng.uniform(*self.think))
                if time.perf_counter() > self.deadline:
                    return
                action = rng.choice(msg["legal"])
                t = time.perf_counter()
                table.sent[state + 1] = t
                await ws.send(json.dumps({"type": "act", "state": state, "action": action}))
                self.actions += 1
                reply = await self._next_state(ws, state + 1, table)
                if reply is None:
                    return
                self.actor_latencies.append(time.perf_counter() - t)
                msg = reply
                continue
            nxt = await self._next_state(ws, state + 1, table)
            if nxt is None:
                return
            msg = nxt

    async def run(self) -> None:
        await self.create_tables()
        self.deadline = float("inf")
        tasks = [
            asyncio.create_task(self.seat(table, s, random.Random(self.rng.random())))
            for table in self.tables
            for s in range(self.people)
        ]
        joined = asyncio.create_task(self.all_joined.wait())
        done, _ = await asyncio.wait([joined, *tasks], return_when=asyncio.FIRST_COMPLETED, timeout=120)
        if joined not in done:
            for t in tasks:
                t.cancel()
            why = f" (the server said {self.last_error})" if self.last_error else ""
            raise RuntimeError(f"only {self.joined} of {len(tasks)} seats could join{why}")
        if self.ready is not None:
            await self.ready()
        self.started_at = time.perf_counter()
        self.deadline = self.started_at + self.seconds
        if self.on_start is not None:
            self.on_start()  # the server's CPU from here: setting up the tables is not measured

        async def at_deadline() -> None:
            await asyncio.sleep(self.seconds)
            if self.on_end is not None:
                self.on_end()  # ... to here: winding down is not measured either

        ender = asyncio.create_task(at_deadline())
        self.start.set()
        # Seats stop acting at the deadline; those left waiting for a move are cancelled soon after.
        await asyncio.wait(tasks, timeout=self.seconds + 3)
        self.ended_at = min(time.perf_counter(), self.deadline)
        await ender
        for t in tasks:
            t.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        for outcome in outcomes:
            # A seat that died of something unexpected is reported, not swallowed: its table stops.
            if isinstance(outcome, Exception):
                self.errors += 1
                code = f"client {type(outcome).__name__}"
                self.error_codes[code] = self.error_codes.get(code, 0) + 1
                self.last_error = f"{code}: {outcome}"


#: The limits of a public server stop a load test at once (every client is on 127.0.0.1): lifted.
UNLIMITED = ["--limit-tables", "1000000/minute", "--limit-connects", "1000000/minute",
             "--limit-connections", "1000000", "--limit-table-connections", "1000000",
             "--limit-reads", "1000000/minute", "--limit-accounts", "1000000/minute"]  # fmt: skip


def _stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server and everything it started: SIGTERM to its process group, SIGKILL to what is
    left 10 s later. (A server of several workers, one of them killed during the run, once outlived
    its SIGTERM with the worker that replaced it, and stayed after the run.)"""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_load(
    tables: int = TARGET_TABLES,
    players: int = 4,
    seconds: float = 30.0,
    think: tuple[float, float] = (0.3, 1.2),
    seed: int = 0,
    url: str | None = None,
    shipped: bool = False,
    bot: str = "heuristic",
    bot_workers: int | None = None,
    bot_runner: str | None = None,
    db: str | None = None,
    workers: int = 1,
    kill_after: float | None = None,
    rated: float = 0.0,
    clients: int = 1,
) -> LoadReport:
    """Start a server (unless ``url`` is given), run the load, stop the server, report.

    ``shipped``: the server as ``oriflamme serve`` ships it (its bot delay and
    bot processes), each table one person driven from here and ``bot`` bots
    on the server; otherwise every seat is driven from here and the server
    runs no bot. ``bot_workers`` overrides the server's bot processes (0:
    threads), to compare the ways of running bots. ``db``: a PostgreSQL server
    (its URL) on which each run makes a scratch database, dropped at the end;
    ``workers``: server processes sharing it (``serve --workers``).
    ``kill_after``: seconds into the measured window at which one of the workers is
    killed with SIGKILL; its clients reconnect, and the report says whether any
    action a client was shown is missing from the database, and how soon every
    table moved on. ``rated``: the share of tables whose seats accounts hold (each account at
    several tables), so that their games are rated when they end. ``clients``: processes
    the tables' clients are shared among (a load generator of one process is itself the limit
    at a few hundred actions a second); their measured windows open together.
    """
    proc: subprocess.Popen[bytes] | None = None
    tmp = tempfile.TemporaryDirectory(prefix="oriflamme-bench-")
    scratch: str | None = None
    given = url is not None
    log_path = Path(tmp.name) / "server.log"
    try:
        if url is None:
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            database = str(Path(tmp.name) / "bench.sqlite3")
            if db is not None:
                database = scratch = scratch_database(db)
            cmd = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port),
                   "--db", database, "--workers", str(workers), *UNLIMITED]  # fmt: skip
            if not shipped:
                cmd += ["--bot-delay", "0", "--bot-workers", "0"]
            else:
                if bot_workers is not None:
                    cmd += ["--bot-workers", str(bot_workers)]
                if bot_runner is not None:
                    cmd += ["--bot-runner", bot_runner]
            with log_path.open("wb") as server_log:
                # Its own process group, so that stopping it reaches every process it started.
                proc = subprocess.Popen(
                    cmd, stdout=subprocess.DEVNULL, stderr=server_log, start_new_session=True
                )
            wait_for(url)
        people = 1 if shipped else players
        run = _Run(url, tables, players, seconds, think, seed, people=people, bot=bot, rated=rated)
        # Memory from before the tables exist (what they cost); CPU from when the measured play starts.
        rss_before = tree_rss_bytes(proc.pid) if proc else None
        times: dict[str, float | None] = {"start": None, "end": None}
        server = proc

        def snapshot(when: str) -> Callable[[], None]:
            def take() -> None:
                if server is not None:
                    times[when] = tree_cpu_seconds(server.pid)

            return take

        run.on_start = snapshot("start")
        run.on_end = snapshot("end")
        if clients > 1:
            run = _played_in_processes(run, clients, people)

        async def kill(pid: int) -> None:
            await run.start.wait()
            await asyncio.sleep(kill_after or 0.0)
            victim = busiest_worker(pid)
            os.kill(victim, signal.SIGKILL)
            run.killed_at = time.perf_counter()

        async def main() -> None:
            with contextlib.suppress(ImportError):
                import uvloop

                asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
            killer = asyncio.create_task(kill(proc.pid)) if kill_after is not None and proc else None
            await run.run()
            if killer is not None:
                killer.cancel()
                with contextlib.suppress(BaseException):
                    await killer

        if clients == 1:
            asyncio.run(main())
        lost = (
            _lost_actions(scratch, run.tables) if scratch is not None and run.killed_at is not None else None
        )
        rss_after = tree_rss_bytes(proc.pid) if proc else None
        logged = problems(log_path) if proc is not None and kill_after is not None else []
        rated_count = rated_games(scratch or database) if run.accounts and not given else None
        cpu_before, cpu_after = times["start"], times["end"]
    finally:
        if proc is not None:
            _stop_server(proc)
        tmp.cleanup()
        if scratch is not None and db is not None:
            drop_database(db, scratch)
    elapsed = run.ended_at - run.started_at
    ms = [x * 1000 for x in run.actor_latencies]
    all_ms = [x * 1000 for x in run.seat_latencies]
    cpu: float | None = None
    if cpu_before is not None and cpu_after is not None:
        cpu = 100 * (cpu_after - cpu_before) / run.seconds
    memory: float | None = None
    if rss_before is not None and rss_after is not None:
        memory = (rss_after - rss_before) / tables / 1024
    return LoadReport(
        tables=tables,
        players=players,
        seconds=round(elapsed, 2),
        think=think,
        actions=run.actions,
        actions_per_second=round(run.actions / elapsed, 1),
        messages=run.messages,
        errors=run.errors,
        error_codes=dict(run.error_codes),
        actor_p50=round(statistics.median(ms), 2) if ms else float("nan"),
        actor_p95=round(percentile(sorted(ms), 95) if ms else float("nan"), 2),
        actor_p99=round(percentile(sorted(ms), 99) if ms else float("nan"), 2),
        actor_max=round(max(ms), 2) if ms else float("nan"),
        all_seats_p95=round(percentile(sorted(all_ms), 95) if all_ms else float("nan"), 2),
        all_seats_p99=round(percentile(sorted(all_ms), 99) if all_ms else float("nan"), 2),
        server_cpu_percent=None if cpu is None else round(cpu, 1),
        finished_games=run.finished,
        shipped=shipped,
        server_cpu_ms_per_table_second=None if cpu is None else round(10 * cpu / tables, 3),
        server_memory_kib_per_table=None if memory is None else round(memory, 1),
        workers=0 if given else workers,
        database="given" if given else "sqlite" if db is None else "postgresql",
        **_failover(run, lost),
        server_problems=logged,
        rated_tables=run.rated_tables,
        accounts=run.accounts,
        rated_games=rated_count,
    )


def _played_in_processes(plan: _Run, clients: int, people: int) -> _Run:
    """Play ``plan``'s tables from ``clients`` processes, each a share of the tables (and its own
    accounts), their windows opened together; ``plan`` with every process's figures added up.
    ``plan.on_start`` and ``on_end`` are called as the common window opens and closes."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(clients + 1)
    results = context.Queue()
    shares = [plan.n_tables // clients + (1 if i < plan.n_tables % clients else 0) for i in range(clients)]
    processes = [
        context.Process(
            target=_client_process,
            args=(
                (plan.base, share, plan.players, plan.seconds, plan.think, plan.rng.randrange(2**31)),
                {"people": people, "bot": plan.bot, "rated": plan.rated, "names": f"Bench{i}x"},
                barrier,
                results,
            ),
        )
        for i, share in enumerate(shares)
    ]
    for process in processes:
        process.start()
    try:
        barrier.wait(600)
    except threading.BrokenBarrierError:
        failures = [str(r["error"]) for r in _collected(results, clients, 10) if r.get("error")]
        raise RuntimeError(
            f"a client process failed before the window opened: {'; '.join(failures)}"
        ) from None
    finally:
        if barrier.broken:
            for process in processes:
                process.kill()
    if plan.on_start is not None:
        plan.on_start()
    time.sleep(plan.seconds)
    if plan.on_end is not None:
        plan.on_end()
    parts = _collected(results, clients, plan.seconds + 120)
    for process in processes:
        process.join(30)
    for part in parts:
        if part.get("error"):
            raise RuntimeError(f"a client process failed: {part['error']}")
        plan.actor_latencies += part["actor"]
        plan.seat_latencies += part["seats"]
        for name in ("actions", "messages", "errors", "finished", "accounts", "rated_tables", "joined"):
            setattr(plan, name, getattr(plan, name) + part[name])
        for code, n in part["codes"].items():
            plan.error_codes[code] = plan.error_codes.get(code, 0) + n
    plan.started_at, plan.ended_at = 0.0, max(part["elapsed"] for part in parts)
    return plan


def _collected(results: Any, count: int, timeout: float) -> list[dict[str, Any]]:
    """Up to ``count`` answers of the client processes, waiting ``timeout`` seconds at most for each."""
    import queue

    found: list[dict[str, Any]] = []
    with contextlib.suppress(queue.Empty):
        while len(found) < count:
            found.append(results.get(timeout=timeout))
    return found


def _client_process(args: tuple[Any, ...], options: dict[str, Any], barrier: Any, results: Any) -> None:
    """One client process of :func:`_played_in_processes`: its tables played, its figures sent back."""
    run = _Run(*args, **options)

    async def ready() -> None:
        await asyncio.to_thread(barrier.wait, 600)

    run.ready = ready
    try:
        with contextlib.suppress(ImportError):
            import uvloop

            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        asyncio.run(run.run())
    except Exception as exc:  # told to the parent, which stops the run with it
        barrier.abort()
        results.put({"error": f"{type(exc).__name__}: {exc}"})
        return
    results.put(
        {
            "actor": run.actor_latencies, "seats": run.seat_latencies, "actions": run.actions,
            "messages": run.messages, "errors": run.errors, "finished": run.finished,
            "accounts": run.accounts, "rated_tables": run.rated_tables, "joined": run.joined,
            "codes": run.error_codes,
            "elapsed": run.ended_at - run.started_at,
        }
    )  # fmt: skip


def _lost_actions(url: str, tables: list[_Table]) -> int:
    """Actions some client was shown that the database does not hold (each table's highest state shown
    against its stored actions)."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT table_id, count(*) FROM actions GROUP BY table_id").fetchall()
    stored: dict[str, int] = {str(table_id): int(count) for table_id, count in rows}
    missing = [max(t.shown, default=0) - stored.get(t.table_id, 0) for t in tables]
    return sum(n for n in missing if n > 0)


def _failover(run: _Run, lost: int | None) -> dict[str, Any]:
    """The failover figures of a run in which a worker was killed (empty otherwise)."""
    killed = run.killed_at
    if killed is None:
        return {}
    waits: list[float] = []
    for t in run.tables:
        before = max((n for n, at in t.shown.items() if at <= killed), default=0)
        later = [at for n, at in t.shown.items() if n > before]
        if later:
            waits.append(min(later) - killed)
    return {
        "killed_at": round(killed - run.started_at, 2),
        "reconnects": run.reconnects,
        "lost_actions": lost,
        "recovery_max": round(max(waits), 2) if waits else None,
        "recovery_p50": round(statistics.median(waits), 2) if waits else None,
        "recovered_tables": len(waits),
    }

"""``oriflamme bench ladder``: how fast the ladders answer on a server with many rated players.

Seeds a scratch SQLite database with accounts, rated games and their rating history (random but
seeded), serves it with ``oriflamme serve``, and times ``GET /api/ratings/multi`` and
``/api/ratings/duel`` over one kept-alive HTTP connection, as a browser asks for them. A
measurement, never a test.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ..commandline import JsonFlag, fail, needs_extra, print_json

#: What the issue asks of the leaderboard: 10,000 accounts, 100,000 rated games, p95 within 50 ms.
TARGET_P95_MS = 50.0


def seed_ladders(path: Path, accounts: int, games: int, seed: int) -> None:
    """Fill the database at ``path`` (migrated already) with ``accounts`` rated accounts and ``games``
    finished, rated 3-player games of theirs (ratings, rated games and each player's history)."""
    rng = random.Random(seed)
    now = time.time()
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.executemany(
                "INSERT INTO accounts (id, name, name_key, created) VALUES (?, ?, ?, ?)",
                ((f"a{i:07}", f"Player {i}", f"player{i}", now) for i in range(accounts)),
            )
            for ladder, share in (("multi", 0.8), ("duel", 0.5)):
                conn.executemany(
                    "INSERT INTO ratings (account_id, ladder, season, mu, sigma, games, updated) "
                    "VALUES (?, ?, 1, ?, ?, ?, ?)",
                    (
                        (f"a{i:07}", ladder, rng.gauss(25, 4), rng.uniform(1, 8.3), rng.randint(1, 60), now)
                        for i in range(accounts)
                        if rng.random() < share
                    ),
                )
            conn.executemany(
                "INSERT INTO tables (id, created, setup, spectator_token, host_token, finished) "
                "VALUES (?, ?, '{}', ?, ?, 1)",
                ((f"g{i:07}", now - i, f"s{i}", f"h{i}") for i in range(games)),
            )
            conn.executemany(
                "INSERT INTO rated_games (table_id, ladder, season, rated) VALUES (?, 'multi', 1, ?)",
                ((f"g{i:07}", now - i) for i in range(games)),
            )
            conn.executemany(
                "INSERT INTO rating_history (account_id, table_id, ladder, season, rank, mu, sigma, at) "
                "VALUES (?, ?, 'multi', 1, ?, ?, ?, ?)",
                (
                    (f"a{account:07}", f"g{i:07}", rank, rng.gauss(25, 4), rng.uniform(1, 8.3), now - i)
                    for i in range(games)
                    for rank, account in enumerate(rng.sample(range(accounts), 3), start=1)
                ),
            )
    finally:
        conn.close()


def run_ladder_bench(accounts: int, games: int, requests: int, seed: int = 0) -> dict[str, Any]:
    """Seed a database, serve it with ``oriflamme serve``, time the ladders over HTTP (milliseconds)."""
    import asyncio

    from .sqlite_store import SqliteStore

    with tempfile.TemporaryDirectory(prefix="oriflamme-ladder-") as tmp:
        path = Path(tmp) / "ladder.sqlite3"
        store = SqliteStore(path)

        async def make_layout() -> None:
            await store.open()
            await store.close()

        asyncio.run(make_layout())
        began = time.perf_counter()
        seed_ladders(path, accounts, games, seed)
        figures: dict[str, Any] = {
            "accounts": accounts,
            "rated_games": games,
            "seed_seconds": round(time.perf_counter() - began, 1),
        }
        port = _free_port()
        command = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port), "--db", str(path),
                   "--limit-reads", "1000000/minute", "--bot-workers", "0"]  # fmt: skip
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            connection = _connect(port)
            for ladder in ("multi", "duel"):
                figures[ladder] = _time_gets(connection, f"/api/ratings/{ladder}", requests)
        finally:
            server.terminate()
            server.wait(10)
    figures["target_p95_ms"] = TARGET_P95_MS
    return figures


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _connect(port: int) -> http.client.HTTPConnection:
    """A kept-alive connection to the server once it answers (as a browser's would be)."""
    deadline = time.monotonic() + 60
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return connection
        except OSError:
            connection.close()
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


def _time_gets(connection: http.client.HTTPConnection, path: str, requests: int) -> dict[str, Any]:
    times: list[float] = []
    listed = 0
    for i in range(requests + 1):
        start = time.perf_counter()
        connection.request("GET", path)
        answer = connection.getresponse()
        body = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{path} answered {answer.status}")
        if i:  # the first answer warms the caches
            times.append((time.perf_counter() - start) * 1000)
        listed = len(json.loads(body)["players"])
    times.sort()
    return {
        "requests": requests,
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "max_ms": round(times[-1], 2),
        "listed": listed,
    }


def bench_ladder_command(
    accounts: Annotated[int, typer.Option(min=10, max=1_000_000, help="Rated accounts to seed.")] = 10_000,
    games: Annotated[
        int, typer.Option(min=1, max=10_000_000, help="Rated 3-player games to seed.")
    ] = 100_000,
    requests: Annotated[int, typer.Option(min=10, max=100_000, help="Requests per ladder.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the made-up ratings.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Time the ladders' answers on a database seeded with many rated players and games."""
    needs_extra("web", "bench ladder")
    if games * 3 > accounts * 1000:
        raise fail("--games: at most 1000 games per 3 accounts, so that the history is believable")
    figures = run_ladder_bench(accounts, games, requests, seed)
    if as_json:
        print_json(figures)
        return
    typer.echo(
        f"{figures['accounts']} accounts, {figures['rated_games']} rated games (seeded in {figures['seed_seconds']} s)"
    )
    for ladder in ("multi", "duel"):
        f = figures[ladder]
        typer.echo(
            f"GET /api/ratings/{ladder}: p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, max {f['max_ms']} ms "
            f"({f['requests']} requests; target p95 <= {TARGET_P95_MS:g} ms)"
        )

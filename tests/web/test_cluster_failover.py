"""Kill -9 one of two server processes in the middle of games: nothing acknowledged is lost, the games go on.

Two ``oriflamme serve`` processes share one PostgreSQL database, as two
workers behind a proxy. Six tables (one person and two random bots each) are
made on both; each person plays through the process that did *not* make the
table, so actions are routed between processes. When every game is under way,
one process is killed with SIGKILL. Its clients reconnect to the survivor by
themselves, as browsers do, and every game is played to its end.

Then every state any client was shown is checked against the database: the
view each client saw at state *n* is exactly the view the stored actions give
at *n*. An action a person saw accepted (or a bot's move anybody saw) is
therefore in the store, in its place.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from oriflamme.engine.action_text import parse_action
from oriflamme.web.protocol import view_payload
from oriflamme.web.store import TableRecord
from oriflamme.web.table_game import deal

TABLES = 6


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(dsn: str, port: int, log: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable, "-m", "oriflamme", "serve", "--db", dsn, "--port", str(port),
            "--bot-delay", "0.05", "--bot-workers", "0", "--idle-hours", "0",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip


def _ready(port: int, deadline: float) -> dict[str, Any]:
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
                data: dict[str, Any] = json.loads(answer.read())
                return data
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _create(port: int, seed: int) -> dict[str, Any]:
    body = {
        "players": 3,
        "deck": "base",
        "seed": seed,
        "seats": [
            {"kind": "person", "name": "P"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
    }
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def _summary(msg: dict[str, Any]) -> str:
    if msg["type"] == "state":
        return f"state {msg['state']} ({len(msg['legal'])} legal)"
    if msg["type"] == "error":
        return f"error {msg['code']} at {msg['state']}: {msg['message']}"
    return str(msg["type"])


@dataclass
class Person:
    """One browser: plays at random, remembers every state it was shown, reconnects when its server goes."""

    token: str
    ports: list[int]
    rng: random.Random
    seen: dict[int, dict[str, Any]] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    reconnects: int = 0
    #: When each state was first shown (event-loop time).
    shown_at: dict[int, float] = field(default_factory=dict)
    #: Every message received, in a few words (for a diagnosis).
    messages: list[str] = field(default_factory=list)

    def resumed(self, killed: float) -> float:
        """Seconds from the kill to the first state this game had not reached before it."""
        before = max((n for n, at in self.shown_at.items() if at <= killed), default=0)
        return min(at for n, at in self.shown_at.items() if n > before) - killed

    async def play(self) -> None:
        import websockets

        while self.result is None:
            port = self.ports[0]
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "join", "token": self.token}))
                    async for text in ws:
                        msg = json.loads(text)
                        self.messages.append(_summary(msg))
                        if msg["type"] != "state":
                            continue
                        self.seen[msg["state"]] = msg["view"]
                        self.shown_at.setdefault(msg["state"], asyncio.get_running_loop().time())
                        if msg["result"] is not None:
                            self.result = msg["result"]
                            return
                        if msg["legal"]:
                            action = self.rng.choice(msg["legal"])
                            await ws.send(
                                json.dumps({"type": "act", "state": msg["state"], "action": action})
                            )
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                pass
            # The server went away: the next one (a browser would ask the proxy again).
            self.reconnects += 1
            self.ports.append(self.ports.pop(0))
            await asyncio.sleep(0.2)


def _stored(dsn: str) -> dict[str, tuple[TableRecord, list[str]]]:
    import psycopg

    from oriflamme.web.store import stored_table

    out: dict[str, tuple[TableRecord, list[str]]] = {}
    with psycopg.connect(dsn) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM tables").fetchall()]
        for table_id in ids:
            row = conn.execute(
                "SELECT created, setup, spectator_token, host_token, finished, actions_version FROM tables WHERE id=%s",
                (table_id,),
            ).fetchone()
            seats = conn.execute(
                "SELECT seat, kind, name, token, bot, lang, joined, conceded FROM seats WHERE table_id=%s ORDER BY seat",
                (table_id,),
            ).fetchall()
            actions = [
                a
                for (a,) in conn.execute(
                    "SELECT action FROM actions WHERE table_id=%s ORDER BY idx", (table_id,)
                )
            ]
            assert row is not None
            t = stored_table(table_id, row, seats, actions)
            out[table_id] = (t.record, t.actions)
    return out


def _diagnosis(people: list[Person], tasks: list[asyncio.Task[None]], dsn: str, logs: list[Any]) -> str:
    """Where each game stands, what the store holds and what the servers said: a stall explained."""
    import psycopg

    lines = []
    for person, task in zip(people, tasks, strict=True):
        if not task.done():
            status = "playing"
        elif task.cancelled() or task.exception() is None:
            status = "ended"
        else:
            status = f"failed: {task.exception()!r}"
        last = max(person.seen, default=-1)
        lines.append(
            f"person {person.token[:6]}: last state {last}, {person.reconnects} reconnects, {status}; "
            f"last messages {person.messages[-3:]}"
        )
    query = (
        "SELECT t.id, s.token, (SELECT count(*) FROM actions a WHERE a.table_id = t.id), "
        "(SELECT owner FROM leases l WHERE l.table_id = t.id) "
        "FROM tables t JOIN seats s ON s.table_id = t.id AND s.seat = 0"
    )
    with psycopg.connect(dsn) as conn:
        for table_id, token, stored, owner in conn.execute(query):
            lines.append(f"table {table_id} (person {token[:6]}): {stored} actions stored, lease {owner}")
    for log in logs:
        log.flush()
        lines.append(Path(log.name).read_text(encoding="utf-8", errors="replace"))
    return "\n".join(lines)


def test_killing_one_of_two_processes_loses_no_acknowledged_action_and_the_games_go_on(
    postgres_dsn: str, tmp_path: Any
) -> None:
    pytest.importorskip("websockets")
    ports = [_free_port(), _free_port()]
    logs = [open(tmp_path / f"server{i}.log", "wb") for i in range(2)]  # noqa: SIM115
    servers = [_start_server(postgres_dsn, port, log) for port, log in zip(ports, logs, strict=True)]
    try:
        deadline = time.monotonic() + 60
        for port in ports:
            _ready(port, deadline)
        people: list[Person] = []
        for i in range(TABLES):
            maker = i % 2
            data = _create(ports[maker], seed=100 + i)
            token = data["seats"][0]["token"]
            # The person plays through the other process: its actions are routed to the owner.
            people.append(Person(token, [ports[1 - maker], ports[maker]], random.Random(i)))

        async def run() -> float:
            tasks = [asyncio.create_task(p.play()) for p in people]
            loop = asyncio.get_running_loop()
            # Kill when every game is under way.
            started = loop.time()
            while min((max(p.seen) if p.seen else 0) for p in people) < 8:
                if loop.time() - started > 90 or any(t.done() for t in tasks):
                    pytest.fail(
                        "a game did not get under way before the kill:\n"
                        + _diagnosis(people, tasks, postgres_dsn, logs)
                    )
                await asyncio.sleep(0.05)
            os.kill(servers[0].pid, signal.SIGKILL)
            killed = loop.time()
            # Each wait is bounded so that the start (60 s), the game's start (90 s) and its end (120 s)
            # all fail with a diagnosis before pytest-timeout's 300 s cuts the test short without one.
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), 120)
            except TimeoutError:
                pytest.fail(
                    "a game did not end after the kill:\n" + _diagnosis(people, tasks, postgres_dsn, logs)
                )
            return killed

        killed = asyncio.run(run())
        servers[0].wait()
        # The survivor still answers and owns what it loaded.
        assert _ready(ports[1], time.monotonic() + 10)["status"] == "ready"
    finally:
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGINT)
                try:
                    server.wait(20)
                except subprocess.TimeoutExpired:
                    server.kill()
        for log in logs:
            log.close()

    assert all(p.result is not None for p in people), "every game was played to its end"
    moved = [p for p in people if p.reconnects]
    assert moved, "the killed process had clients, which reconnected"
    # Not a timing assertion (the machine may be loaded): the figure is printed for the record.
    print(f"\nafter the kill every game moved on again within {max(p.resumed(killed) for p in people):.2f} s")

    stored = _stored(postgres_dsn)
    by_token = {record.seats[0].token: (record, actions) for record, actions in stored.values()}
    for person in people:
        record, actions = by_token[person.token]
        assert max(person.seen) == len(actions), "the game ended on the last stored action"
        g = deal(record)
        for state in range(len(actions) + 1):
            if state in person.seen:
                shown = json.loads(json.dumps(view_payload(g.view(0))))
                assert person.seen[state] == shown, f"state {state} as shown is the stored game's"
            if state < len(actions):
                g.apply(parse_action(g, actions[state]))

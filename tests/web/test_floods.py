"""A server one player cannot stall: the red team's floods, as tests.

Each reproduces an attack that once dropped other people's connections or
slowed other tables, and checks what the others get now, in the test's own
terms (frames queued, moves made, requests answered), never in seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from support.web import Seat
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.bots import registry as bot_registry
from oriflamme.bots.random_bot import RandomBot
from oriflamme.engine.view import SeatView
from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import ExecutorBotRunner, InlineBotRunner
from oriflamme.web.client import MAX_BACKLOG, Client
from oriflamme.web.documents import Documents
from oriflamme.web.guard import ServerLimits
from oriflamme.web.live_table import LiveTable
from oriflamme.web.store import TokenRef
from oriflamme.web.table_host import PRESENCE_GAP
from oriflamme.web.tables import TableRegistry

PEOPLE = [{"kind": "person", "name": n} for n in ("Ann", "Bob")] + [{"kind": "bot", "bot": "random"}]


@pytest.fixture
def app() -> FastAPI:
    return create_app(None, bot_runner=InlineBotRunner(), bot_delay=0.0)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def registry(app: FastAPI) -> TableRegistry:
    reg: TableRegistry = app.state.registry
    return reg


def create(
    client: TestClient, seats: list[dict[str, Any]], headers: dict[str, str] | None = None, **extra: Any
) -> dict[str, Any]:
    body = {"players": len(seats), "deck": "base", "seed": 5, "first_player": 2, "seats": seats, **extra}
    r = client.post("/api/tables", json=body, headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def live_away(client: TestClient, table_id: str) -> set[int]:
    table = client.portal.call(client.app.state.registry.get, table_id)  # type: ignore[attr-defined,union-attr]
    assert table is not None
    return set(table.away)


def live(client: TestClient, app: FastAPI, table_id: str) -> LiveTable:
    table = client.portal.call(registry(app).get, table_id)  # type: ignore[union-attr]
    assert table is not None
    return table


class SlowReader:
    """A spectator's connection whose browser reads nothing: every frame waits in its queue."""

    def __init__(self) -> None:
        self.client: Client | None = None
        self.stuck = asyncio.Event()

    async def attach(self, table: LiveTable) -> None:
        async def never(_: str) -> None:
            await self.stuck.wait()

        async def close() -> None:
            return None

        self.client = Client(never, close, "192.0.2.50")
        await table.attach(self.client, TokenRef(table.record.id, "spectator", None))

    async def queued(self) -> int:
        assert self.client is not None
        return self.client._queue.qsize()


def test_an_away_back_burst_does_not_drop_a_slow_reader_and_survives_reconnecting(
    client: TestClient, app: FastAPI
) -> None:
    """150 away/back messages from one seat once queued 300 frames for everyone (past the 256 a
    connection may hold): now the seat's rate refuses all but a few, on every connection it opens."""
    data = create(client, PEOPLE)
    table = live(client, app, data["table"])
    reader = SlowReader()
    client.portal.call(reader.attach, table)  # type: ignore[union-attr]
    before = client.portal.call(reader.queued)  # type: ignore[union-attr]
    refused = [0, 0, 0]
    for round_ in range(3):  # the burst, split over three connections of the seat
        with client.websocket_connect("/ws") as ws:
            ann = Seat(ws)
            ann.join(data["seats"][0]["token"])
            for i in range(50):
                ann.send({"type": "away" if (round_ * 50 + i) % 2 == 0 else "back"})
            ann.send({"type": "ping"})
            while (frame := ann.until(lambda m: m["type"] in ("pong", "error")))["type"] != "pong":
                refused[round_] += frame["code"] == "too_fast"
    # The first 12 changes went through; then every change asked was refused (the other half of the
    # messages asked for what already was), on the new connections too.
    assert refused == [50 - 12 - 19, 25, 25]
    assert reader.client is not None and not reader.client.closed
    queued = client.portal.call(reader.queued)  # type: ignore[union-attr]
    # Each change that went through queued a presence and a clock frame; each connection of Ann's
    # a presence frame as it came and went, and two more as its coming back returned the seat.
    assert queued - before <= 2 * 12 + 4 * 3
    assert queued < MAX_BACKLOG // 4
    reader.stuck.set()


def test_a_replay_flood_builds_the_document_once_off_the_event_loop() -> None:
    """16 clients asking for one replay once rebuilt the game 16 times on the event loop."""
    builds: list[int] = []
    gate = threading.Event()

    def build() -> str:
        builds.append(threading.get_ident())
        assert gate.wait(10)
        return "the document"

    async def flood() -> tuple[list[str], int]:
        documents = Documents()
        asks = [asyncio.ensure_future(documents.get(("replay", "t", 1), build)) for _ in range(16)]
        # While the build waits on its thread, the loop goes on: other tables are served.
        turns = 0
        while not builds:
            await asyncio.sleep(0.001)
        for _ in range(50):
            await asyncio.sleep(0)
            turns += 1
        gate.set()
        answers = await asyncio.gather(*asks)
        again = await documents.get(("replay", "t", 1), build)
        return [*answers, again], turns

    answers, turns = asyncio.run(flood())
    assert answers == ["the document"] * 17
    assert turns == 50
    assert len(builds) == 1 and builds[0] != threading.get_ident()


def test_a_finished_games_replay_and_save_file_are_built_once(client: TestClient, app: FastAPI) -> None:
    data = create(client, [{"kind": "bot", "bot": "random"}] * 3)
    table = live(client, app, data["table"])
    client.portal.call(wait_for_the_end, table)  # type: ignore[union-attr]
    first = client.get(f"/api/replay/{data['spectator']}")
    assert first.status_code == 200 and first.json()["steps"]
    for _ in range(5):
        assert client.get(f"/api/replay/{data['spectator']}").content == first.content
    save = client.get(f"/api/save/{data['host']}")
    assert save.status_code == 200 and client.get(f"/api/save/{data['host']}").content == save.content
    assert app.state.documents.builds == 2


async def wait_for_the_end(table: LiveTable) -> None:
    while not table.game.is_over():
        await asyncio.sleep(0.01)


def test_reads_of_open_tables_replays_and_lobbies_have_a_rate_per_address() -> None:
    app = create_app(None, bot_runner=InlineBotRunner(), limits=ServerLimits(reads_per_address="3/day"))
    with TestClient(app) as client:
        for _ in range(2):
            assert client.get("/api/open").status_code == 200
        assert client.post("/api/lobby", json={"tokens": []}).status_code == 200
        refused = client.get("/api/open")
        assert refused.status_code == 429 and "too many reads" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) >= 1
        assert client.get("/api/replay/x").status_code == 429
        assert client.get("/api/save/x").status_code == 429


class Moves:
    """A log of the moves that slow search bots made, by bot kind, shared with their threads."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.lock = threading.Lock()

    def bot(self, name: str, seconds: float) -> Any:
        moves = self

        class Slow(RandomBot):
            def choose(self, view: SeatView) -> int:
                time.sleep(seconds)
                with moves.lock:
                    moves.log.append(name)
                return super().choose(view)

        return lambda level, seed: Slow(seed)

    def between(self, name: str, other: str, count: int) -> list[int]:
        """Moves of ``other`` between each two of ``name``'s first ``count``."""
        gaps: list[int] = []
        run = 0
        seen = 0
        with self.lock:
            for entry in self.log:
                if entry == other:
                    run += 1
                elif entry == name:
                    if seen:
                        gaps.append(run)
                    seen += 1
                    run = 0
                    if seen == count:
                        break
        return gaps


def test_expert_tables_from_one_address_do_not_starve_another_tables_search_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six all-bot tables of a slow search from one address, each watched, beside one table of
    another's: the bot processes (two, first come first served) once ran ~6 of the six tables'
    moves for each of the other's. Now one address holds at most one of the two."""
    moves = Moves()
    monkeypatch.setitem(bot_registry.BOT_KINDS, "hog", (moves.bot("hog", 0.05), (), None))
    monkeypatch.setitem(bot_registry.BOT_KINDS, "other", (moves.bot("other", 0.05), (), None))
    runner = ExecutorBotRunner(ThreadPoolExecutor(2), workers=2)
    app = create_app(None, bot_runner=runner, bot_delay=0.0)
    attacker, neighbour = {"x-forwarded-for": "198.51.100.66"}, {"x-forwarded-for": "203.0.113.5"}
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]
    with TestClient(proxied) as client, contextlib.ExitStack() as watching:
        for _ in range(6):
            data = create(client, [{"kind": "bot", "bot": "hog"}] * 3, headers=attacker)
            ws = watching.enter_context(client.websocket_connect("/ws", headers=attacker))
            Seat(ws).join(data["spectator"])
        mine = create(client, [{"kind": "bot", "bot": "other"}] * 3, headers=neighbour)
        ws = watching.enter_context(client.websocket_connect("/ws", headers=neighbour))
        Seat(ws).join(mine["spectator"])
        deadline = time.monotonic() + 60
        while len(moves.between("other", "hog", 6)) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        gaps = moves.between("other", "hog", 6)
    assert len(gaps) == 5
    # One process for the six tables, one free for the neighbour: about one move of theirs per move
    # of the neighbour's (a little more as the two processes drift), never six.
    assert max(gaps) <= 2, (gaps, moves.log)


def test_a_search_bot_thinks_only_while_somebody_has_its_table_open(
    client: TestClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = Moves()
    monkeypatch.setitem(bot_registry.BOT_KINDS, "search", (moves.bot("search", 0.0), (), None))
    alone = create(client, [{"kind": "bot", "bot": "search"}] * 3)
    watched = create(client, [{"kind": "bot", "bot": "random"}] * 3)  # a light bot plays regardless
    client.portal.call(wait_for_the_end, live(client, app, watched["table"]))  # type: ignore[union-attr]
    assert moves.log == [] and live(client, app, alone["table"]).state == 0
    with client.websocket_connect("/ws") as ws:
        Seat(ws).join(alone["spectator"]).get("state")
        Seat(ws).state_at_least(3)
    assert len(moves.log) >= 3


def test_spectators_coming_and_going_send_the_players_nothing(client: TestClient) -> None:
    """A spectator link opened and closed in a loop once sent everyone a presence frame each time."""
    data = create(client, PEOPLE)
    with client.websocket_connect("/ws") as ws:
        ann = Seat(ws)
        ann.join(data["seats"][0]["token"])
        ann.send({"type": "ping"})
        ann.until(lambda m: m["type"] == "pong")
        before = len(ann.frames)
        for _ in range(20):
            with client.websocket_connect("/ws") as other:
                Seat(other).join(data["spectator"])
        ann.send({"type": "ping"})
        ann.until(lambda m: m["type"] == "pong")
        told = [json.loads(f)["type"] for f in ann.frames[before:]]
        assert told == ["pong"]
        # What the frame says did change when Bob came: then it is sent.
        with client.websocket_connect("/ws") as other:
            Seat(other).join(data["seats"][1]["token"])
            assert ann.until(lambda m: m["type"] == "presence")["online"] == [True, True, False]


def test_coming_back_by_reopening_the_page_counts_with_the_seats_rate(client: TestClient) -> None:
    """Reopening a seat's page takes it back from its bot: a change like any other, counted with the
    seat's rate (once it was not, and a seat could change twice as often by reconnecting)."""
    data = create(client, PEOPLE)
    token = data["seats"][0]["token"]
    refused = 0
    for _ in range(14):
        with client.websocket_connect("/ws") as ws:
            ann = Seat(ws)
            ann.join(token)
            ann.send({"type": "away"})
            ann.send({"type": "ping"})
            while (frame := ann.until(lambda m: m["type"] in ("pong", "error")))["type"] != "pong":
                refused += frame["code"] == "too_fast"
    # 12 changes a minute: the first away, then a return on reopening and an away for each of the
    # next five pages, then the twelfth change is a return; every away after it is refused. Had the
    # returns not been counted, 12 aways would have gone through and 2 been refused.
    assert refused == 14 - 6
    assert 0 not in live_away(client, data["table"])


def test_the_maker_of_a_table_is_remembered_across_a_restart_as_a_digest(tmp_path: Path) -> None:
    """Fair turns at the bot processes once went per table after a restart: the maker was not stored."""
    db = tmp_path / "games.sqlite3"
    maker = {"x-forwarded-for": "198.51.100.77"}
    seats = [{"kind": "bot", "bot": "random"}] * 3
    app = create_app(db, bot_runner=InlineBotRunner(), bot_delay=30.0)
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as c:  # type: ignore[arg-type]
        made = [create(c, seats, headers=maker)["table"] for _ in range(3)]
        other = create(c, seats, headers={"x-forwarded-for": "203.0.113.1"})["table"]
    app = create_app(db, bot_runner=InlineBotRunner(), bot_delay=30.0)
    with TestClient(app) as c:
        keys = {t: live(c, app, t).share_key for t in [*made, other]}
    assert len({keys[t] for t in made}) == 1 and keys[made[0]] not in made
    assert keys[other] != keys[made[0]]
    stored = sqlite3.connect(db).execute("SELECT setup FROM tables").fetchall()
    assert not any("198.51.100" in setup for (setup,) in stored)


def test_a_seats_only_tab_opened_and_closed_in_a_loop_costs_the_others_a_frame_a_half_second(
    client: TestClient,
) -> None:
    """Each opening and closing changes who is online; the frames that say so are spaced out, the
    last always told."""
    data = create(client, PEOPLE)
    with client.websocket_connect("/ws") as ws:
        ann = Seat(ws)
        ann.join(data["seats"][0]["token"])
        ann.send({"type": "ping"})
        ann.until(lambda m: m["type"] == "pong")
        before = len(ann.frames)
        started = time.monotonic()
        for _ in range(20):
            with client.websocket_connect("/ws") as other:
                Seat(other).join(data["seats"][1]["token"])
        elapsed = time.monotonic() - started
        time.sleep(2 * PRESENCE_GAP)  # a frame held back goes out within the gap
        ann.send({"type": "ping"})
        ann.until(lambda m: m["type"] == "pong")
        told = [f for f in map(json.loads, ann.frames[before:]) if f["type"] == "presence"]
        # Whatever was told, the last word is the truth (Bob gone); nothing, if it all fell in one gap.
        assert not told or told[-1]["online"] == [True, False, False]
        assert len(told) <= elapsed / PRESENCE_GAP + 2 < 40


def test_an_ipv6_network_takes_one_share_of_the_bot_processes() -> None:
    """Counted by /64, one /48 held 65,536 fair shares of the bot processes."""
    app = create_app(None, bot_runner=InlineBotRunner(), bot_delay=30.0)
    seats = [{"kind": "bot", "bot": "random"}] * 3
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as c:  # type: ignore[arg-type]
        tables = [
            create(c, seats, headers={"x-forwarded-for": address})["table"]
            for address in ("2001:db8:1:1::1", "2001:db8:1:2::7", "2001:db8:2::1")
        ]
        keys = [live(c, app, t).share_key for t in tables]
    assert keys[0] == keys[1] != keys[2]

"""A server one player cannot stall: the red team's floods, as tests.

Each reproduces an attack that once dropped other people's connections or
slowed other tables, and checks what the others get now, in the test's own
terms (frames queued, moves made, requests answered), never in seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from support.web import Seat

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.client import MAX_BACKLOG, Client
from oriflamme.web.live_table import LiveTable
from oriflamme.web.store import TokenRef
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


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"players": len(seats), "deck": "base", "seed": 5, "first_player": 2, "seats": seats, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


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

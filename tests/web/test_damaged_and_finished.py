"""A damaged table is set aside, never taking the server down; a finished table nobody watches leaves memory."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.web import Seat

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.tables import TableRegistry

BOTS = [{"kind": "bot", "bot": "random"}] * 3
PEOPLE = [
    {"kind": "person", "name": "Ann"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "random"},
]


def make(db: Path, bot_delay: float = 0.0) -> TestClient:
    return TestClient(create_app(db, bot_runner=InlineBotRunner(), bot_delay=bot_delay))


def registry(client: TestClient) -> TableRegistry:
    reg: TableRegistry = client.app.state.registry  # type: ignore[attr-defined]
    return reg


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"players": 3, "deck": "base", "seed": 3, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def gone_then_loaded(client: TestClient, table_id: str) -> Any:
    """Wait until the table has left memory, then load it again from the store."""
    reg = registry(client)

    async def until_gone() -> None:
        while table_id in reg.tables:
            await asyncio.sleep(0.01)

    client.portal.call(asyncio.wait_for, until_gone(), 60)  # type: ignore[union-attr]
    return client.portal.call(reg.get, table_id)  # type: ignore[union-attr]


def damage(db: Path, table_id: str, setup: str | None = None, action: str | None = None) -> None:
    conn = sqlite3.connect(db)
    if setup is not None:
        conn.execute("UPDATE tables SET setup=? WHERE id=?", (setup, table_id))
    if action is not None:
        conn.execute("UPDATE actions SET action=? WHERE table_id=? AND idx=0", (action, table_id))
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "damaged",
    [
        {"setup": "{not json"},
        {"setup": '{"deck": "base"}'},  # fields missing
        {"action": "place nonsense nowhere"},  # an action that does not replay
    ],
    ids=["unreadable", "incomplete", "unplayable"],
)
def test_a_damaged_table_is_set_aside_with_a_log_line_and_a_clear_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damaged: dict[str, str]
) -> None:
    """Once, one malformed unfinished table stopped the server starting ("Application startup
    failed"), and the links of others said there was no such table."""
    db = tmp_path / "games.sqlite3"
    with make(db, bot_delay=30.0) as client:
        bad = create(client, PEOPLE, first_player=0)
        good = create(client, PEOPLE, first_player=0)
        with client.websocket_connect("/ws") as ws:
            ann = Seat(ws)
            ann.join(bad["seats"][0]["token"])
            ann.act(ann.last_state["legal"][0])  # type: ignore[index]
            ann.state_at_least(1)
    damage(db, bad["table"], **damaged)
    caplog.set_level(logging.ERROR, logger="oriflamme.web")
    with make(db) as client:  # starts: the damaged table is set aside
        assert client.get("/readyz").json()["status"] == "ready"
        lines = [r.getMessage() for r in caplog.records if bad["table"] in r.getMessage()]
        assert len(lines) == 1 and "is set aside" in lines[0]
        assert bad["table"] in registry(client).damaged
        with client.websocket_connect("/ws") as ws:
            seat = Seat(ws)
            seat.send({"type": "join", "token": bad["seats"][0]["token"]})
            assert "damaged" in seat.expect_error("damaged")["message"]
            seat.join(good["seats"][0]["token"])  # the other tables play on
        for path in (f"/api/replay/{bad['spectator']}", f"/api/save/{bad['host']}"):
            answer = client.get(path)
            assert answer.status_code == 409 and "damaged" in answer.json()["detail"]
        lobby = client.post("/api/lobby", json={"tokens": [bad["host"], good["host"]]}).json()
        assert [t["table"] for t in lobby["tables"]] == [good["table"]]
    # Nothing of the damaged table was changed by setting it aside.
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT finished FROM tables WHERE id=?", (bad["table"],)).fetchone() == (0,)
    conn.close()


def test_a_finished_all_bot_table_leaves_memory_and_comes_back_whole(tmp_path: Path) -> None:
    with make(tmp_path / "games.sqlite3") as client:
        data = create(client, BOTS)
        table = gone_then_loaded(client, data["table"])
        assert table is not None and table.finished and table.game.is_over()


def test_a_game_finished_by_stand_ins_after_its_person_left_leaves_memory(tmp_path: Path) -> None:
    """A person who leaves their seat to a bot and closes the page: the bots end the game alone."""
    with make(tmp_path / "games.sqlite3") as client:
        data = create(client, PEOPLE, first_player=0)
        with client.websocket_connect("/ws") as ws:
            ann = Seat(ws)
            ann.join(data["seats"][0]["token"])
            ann.send({"type": "away"})
            ann.until(lambda m: m["type"] == "presence" and m["away"] == [0])
        table = gone_then_loaded(client, data["table"])
        assert table is not None and table.finished


def test_a_damaged_open_table_is_left_out_of_the_lists_and_seats(tmp_path: Path) -> None:
    """An open table whose rows cannot be read made /api/open, a quick match and a join without a
    table answer 500 for everyone; it is left out, and a join naming it finds no seat there."""
    db = tmp_path / "games.sqlite3"
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    body = {"players": 3, "deck": "base", "seats": seats, "open": True, "turn_seconds": 60}
    with make(db) as client:
        bad = client.post("/api/tables", json=body).json()
        good = client.post("/api/tables", json=body).json()
    damage(db, bad["table"], setup="{not json")
    with make(db) as client:
        listed = client.get("/api/open")
        assert listed.status_code == 200
        assert [t["table"] for t in listed.json()["tables"]] == [good["table"]]
        assert client.post("/api/open/join", json={"table": bad["table"]}).status_code == 409
        assert client.post("/api/open/join", json={"table": good["table"]}).status_code == 200
        assert client.post("/api/quick-match", json={}).status_code == 200

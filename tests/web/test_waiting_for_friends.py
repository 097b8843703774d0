"""A table waits for its people: no turn timer runs, and no bot plays a person's seat, until every
person seat has been joined once; the host can hand out the links of the seats still free.

The newcomer's first hour as it went: three players, a 30-second timer, two friends invited.
The host played while her friends had not opened their links yet, and a minute later the game
was in round 3 with bots playing both friends' seats. Each test plays that story through the
HTTP API and the WebSocket, moving the table's clock on as if the minutes had passed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from fastapi import FastAPI
from fastapi.testclient import TestClient
from support.web import Seat
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.live_table import LiveTable
from oriflamme.web.tables import TableRegistry

#: The lobby's table: the host, and two seats marked "Friend (invite link)".
FRIENDS = [{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "person"}]
CREATOR = {"x-forwarded-for": "198.51.100.7"}
STRANGER = {"x-forwarded-for": "203.0.113.9"}


@pytest.fixture
def app() -> FastAPI:
    return create_app(None, bot_runner=InlineBotRunner(), bot_delay=0.0)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as c:  # type: ignore[arg-type]
        yield c


def live(client: TestClient, app: FastAPI, table_id: str) -> LiveTable:
    reg: TableRegistry = app.state.registry
    table = client.portal.call(reg.get, table_id)  # type: ignore[union-attr]
    assert table is not None
    return table


def create(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"players": 3, "deck": "base", "seats": FRIENDS, "turn_seconds": 30, "first_player": 0, **extra}
    r = client.post("/api/tables", json=body, headers=CREATOR)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def let_time_pass(client: TestClient, table: LiveTable, seconds: float) -> None:
    """As if ``seconds`` had passed since the decision now asked began (a bot that waits on a
    timer is started again, so that it sees the time gone)."""

    async def shift() -> None:
        table.turn_started -= seconds
        table.restart_bot()

    client.portal.call(shift)  # type: ignore[union-attr]


def wait_a_little(client: TestClient, table: LiveTable, seconds: float, times: int = 5) -> None:
    for _ in range(times):
        let_time_pass(client, table, seconds)
        time.sleep(0.02)


def test_the_turn_timer_waits_until_every_friend_has_joined(client: TestClient, app: FastAPI) -> None:
    data = create(client)
    table = live(client, app, data["table"])
    with client.websocket_connect("/ws") as wa:
        ann = Seat(wa)
        first = ann.join(data["seats"][0]["token"])
        assert first["view"]["to_move"] == 0 and first["turn_left"] is None  # no clock: friends missing
        presence = ann.until(lambda m: m["type"] == "presence")
        assert presence["waiting"] == [1, 2]
        ann.act(first["legal"][0])
        after = ann.state_at_least(1)
        assert after["view"]["to_move"] == 1 and after["turn_left"] is None
        # 75 seconds, and more: nobody plays for the friends who have not opened their links.
        wait_a_little(client, table, 75)
        assert table.state == 1 and table.game.round == 1 and table.game.current_player() == 1
        assert table.away == set() and table.bot_task is None
        with client.websocket_connect("/ws") as wb:
            bob = Seat(wb)
            assert bob.join(data["seats"][1]["token"])["turn_left"] is None  # Cyd is still missing
            assert ann.until(lambda m: m["type"] == "presence" and m["waiting"] == [2])
            wait_a_little(client, table, 75)
            assert table.state == 1 and table.away == set()
            with client.websocket_connect("/ws") as wc:
                cyd = Seat(wc)
                joined = cyd.join(data["seats"][2]["token"])
                # Everyone is here: the clocks start now, with a whole turn for Bob.
                assert joined["state"] == 1 and joined["view"]["round"] == 1
                clock = bob.until(lambda m: m["type"] == "clock")
                assert 29 <= clock["turn_left"] <= 30
                assert bob.until(lambda m: m["type"] == "presence")["waiting"] == []
        # Bob and Cyd joined and left: their timers run out, and a bot plays for them (as before).
        let_time_pass(client, table, 31)
        assert ann.until(lambda m: m["type"] == "presence" and 1 in m["away"])
        assert ann.state_at_least(2)["view"]["to_move"] != 1


def test_the_hosts_clock_waits_while_she_hands_out_the_links(client: TestClient, app: FastAPI) -> None:
    """The friends opened their links while the host was still on the invite panel: her first turn
    starts when she takes her seat, not when the table was made."""
    data = create(client)
    table = live(client, app, data["table"])
    for seat in (1, 2):
        with client.websocket_connect("/ws") as ws:
            assert Seat(ws).join(data["seats"][seat]["token"])["turn_left"] is None
    wait_a_little(client, table, 75)
    assert table.state == 0 and table.away == set()  # nobody played the host's first decision
    with client.websocket_connect("/ws") as wa:
        first = Seat(wa).join(data["seats"][0]["token"])
        assert first["state"] == 0 and 29 <= first["turn_left"] <= 30


def test_the_host_is_given_the_links_of_the_seats_nobody_joined_yet(client: TestClient, app: FastAPI) -> None:
    data = create(client)
    with client.websocket_connect("/ws") as wb:
        Seat(wb).join(data["seats"][1]["token"])
    with client.websocket_connect("/ws") as wa:
        ann = Seat(wa)
        ann.send({"type": "join", "token": data["seats"][0]["token"]})
        welcome = ann.recv()
        # Bob joined: only Cyd's link is handed out again, and never to anybody but the host.
        assert welcome["invites"] == [{"seat": 2, "token": data["seats"][2]["token"]}]
    with client.websocket_connect("/ws") as wh:
        host = Seat(wh)
        host.send({"type": "join", "token": data["host"]})
        assert host.recv()["invites"] == [{"seat": 2, "token": data["seats"][2]["token"]}]
    for token in (data["seats"][1]["token"], data["spectator"]):
        with client.websocket_connect("/ws") as ws:
            other = Seat(ws)
            other.send({"type": "join", "token": token})
            welcome = other.recv()
            assert welcome["invites"] == []
            assert data["seats"][2]["token"] not in "".join(other.frames)


def test_an_open_table_hands_out_no_link_and_no_bot_plays_a_seat_nobody_took(
    client: TestClient, app: FastAPI
) -> None:
    """A stranger's seat is never the creator's to give, and nobody plays it until it is taken."""
    seats = [{"kind": "person", "name": "Mallory"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    data = create(client, seats=seats, open=True, turn_seconds=60, first_player=None)
    table = live(client, app, data["table"])
    with client.websocket_connect("/ws", headers=CREATOR) as wm:
        mallory = Seat(wm)
        mallory.send({"type": "join", "token": data["seats"][0]["token"]})
        welcome = mallory.recv()
        assert welcome["invites"] == []
        first = mallory.until(lambda m: m["type"] == "state")
        assert first["turn_left"] is None
        assert mallory.until(lambda m: m["type"] == "presence")["waiting"] == [1]
        while table.game.current_player() != 1:  # Mallory and the bot play up to the free seat
            if table.game.current_player() == 0:
                msg = mallory.state_at_least(table.state)
                mallory.act(msg["legal"][0], state=msg["state"])
                mallory.state_at_least(msg["state"] + 1)
            else:
                time.sleep(0.02)
        at = table.state
        wait_a_little(client, table, 120)
        assert table.state == at and table.away == set()
        taken = client.post("/api/open/join", json={"table": data["table"]}, headers=STRANGER).json()
        assert mallory.until(lambda m: m["type"] == "clock")["turn_left"] > 59
        with client.websocket_connect("/ws", headers=STRANGER) as ws:
            stranger = Seat(ws)
            assert 59 <= stranger.join(taken["token"])["turn_left"] <= 60


def test_a_table_reloaded_before_its_first_move_gives_the_first_decision_a_whole_turn(tmp_path: Any) -> None:
    """Its clock counted from the table's creation: a table made, joined and left for an hour, then
    opened again (after a restart, or once it had left memory), had its first player's turn over."""
    db = tmp_path / "games.sqlite3"
    seats = [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "random"},
    ]
    body = {"players": 3, "deck": "base", "seats": seats, "turn_seconds": 30, "first_player": 0}
    with TestClient(create_app(db, bot_runner=InlineBotRunner(), bot_delay=0.0)) as client:
        data = client.post("/api/tables", json=body).json()
        with client.websocket_connect("/ws") as ws:
            Seat(ws).join(data["seats"][0]["token"])
    with (
        time_machine.travel(time.time() + 3600, tick=True),
        TestClient(create_app(db, bot_runner=InlineBotRunner(), bot_delay=0.0)) as client,
        client.websocket_connect("/ws") as ws,
    ):
        first = Seat(ws).join(data["seats"][0]["token"])
    assert first["state"] == 0
    assert first["turn_left"] is not None and first["turn_left"] > 25

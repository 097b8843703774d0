"""Open tables that strangers can trust: the red team's reproductions, as tests.

A stranger who sits down at an open table (from the lobby's list or a quick
match) must hold a link nobody else ever held, and be dealt cards nobody could
predict. Each test plays the attack as the red team did, through the HTTP API
and the WebSocket, with each person at an address of their own (the server
reads it from ``X-Forwarded-For``, as behind a trusted proxy).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from support.web import Seat
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.engine.action_text import action_text
from oriflamme.engine.game import Game
from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.live_table import LiveTable
from oriflamme.web.tables import TableRegistry

CREATOR = {"x-forwarded-for": "198.51.100.7"}
STRANGER = {"x-forwarded-for": "203.0.113.9"}
#: An open table as the planter makes it: their seat, one for the stranger, a bot.
PLANTED = [{"kind": "person", "name": "Mallory"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def app() -> FastAPI:
    return create_app(None, bot_runner=InlineBotRunner(), bot_delay=0.0)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as c:  # type: ignore[arg-type]
        yield c


def registry(app: FastAPI) -> TableRegistry:
    reg: TableRegistry = app.state.registry
    return reg


def live(client: TestClient, app: FastAPI, table_id: str) -> LiveTable:
    table = client.portal.call(registry(app).get, table_id)  # type: ignore[union-attr]
    assert table is not None
    return table


def plant(client: TestClient, **extra: Any) -> dict[str, Any]:
    """The planter's open table, as the creation answer gives it to them."""
    body = {"players": 3, "deck": "base", "seats": PLANTED, "open": True, "turn_seconds": 60, **extra}
    r = client.post("/api/tables", json=body, headers=CREATOR)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def play_to_the_end(table: LiveTable) -> None:
    """The people's decisions at random (the bots play their own), until the game is over."""
    rng = random.Random(3)
    while not table.game.is_over():
        g = table.game
        seat = g.current_player()
        if table.record.seats[seat].kind == "person":
            assert (
                await table.try_act(seat, table.state, action_text(g, rng.choice(g.legal_actions())), 0.0)
                is None
            )
        else:
            await asyncio.sleep(0.005)


def tokens_in(data: Any) -> set[str]:
    """Every string in an answer that could be a link's token."""
    if isinstance(data, dict):
        return set().union(*(tokens_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(tokens_in(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) and len(data) >= 20 else set()


def test_the_creator_of_an_open_table_gets_no_link_to_a_strangers_seat(
    client: TestClient, app: FastAPI
) -> None:
    planted = plant(client)
    assert planted["seats"][0]["token"] and planted["seats"][1]["token"] is None
    before = live(client, app, planted["table"]).record.seats[1].token  # what the seat was stored with
    lobby = client.post("/api/lobby", json={"tokens": [planted["host"]]}, headers=CREATOR).json()
    assert before not in tokens_in(lobby)


@pytest.mark.parametrize("how", ["join", "quick-match"])
def test_a_stranger_at_a_planted_open_table_holds_a_link_nobody_else_ever_held(
    client: TestClient, app: FastAPI, how: str
) -> None:
    """The red team's attack: plant an open table, let a stranger sit, then use every link the
    planter was ever given (and the seat's old one) to see, rename, concede or play for them."""
    planted = plant(client)
    old = live(client, app, planted["table"]).record.seats[1].token
    with client.websocket_connect("/ws", headers=CREATOR) as ws:  # the planter waits at the table
        Seat(ws).join(planted["seats"][0]["token"])
        if how == "join":
            r = client.post("/api/open/join", json={"table": planted["table"]}, headers=STRANGER)
        else:
            r = client.post("/api/quick-match", json={}, headers=STRANGER)
    assert r.status_code == 200, r.text
    seat = r.json()
    assert (seat["table"], seat["seat"]) == (planted["table"], 1)
    known_to_planter = tokens_in(planted) | {old}
    assert seat["token"] not in known_to_planter
    # The planter's lobby, asked with the host's link now, names no link of the stranger's.
    lobby = client.post("/api/lobby", json={"tokens": [planted["host"]]}, headers=CREATOR).json()
    assert seat["token"] not in tokens_in(lobby)
    with client.websocket_connect("/ws", headers=CREATOR) as ws:
        mallory = Seat(ws)
        mallory.send({"type": "join", "token": old})
        mallory.expect_error("bad_token")
    with client.websocket_connect("/ws", headers=STRANGER) as ws:
        assert Seat(ws).join(seat["token"])["seat"] == 1
    assert live(client, app, planted["table"]).record.seats[1].token == seat["token"]


def test_a_rematch_of_an_open_table_gives_the_host_no_strangers_link(
    client: TestClient, app: FastAPI
) -> None:
    planted = plant(client)
    client.post("/api/open/join", json={"table": planted["table"]}, headers=STRANGER)
    table = live(client, app, planted["table"])
    client.portal.call(play_to_the_end, table)  # type: ignore[union-attr]
    rematch = client.portal.call(registry(app).rematch, table)  # type: ignore[union-attr]
    assert not rematch.record.host_sees_links
    lobby = client.post("/api/lobby", json={"tokens": [rematch.record.host_token]}).json()
    assert rematch.record.seats[1].token not in tokens_in(lobby)


def test_an_open_table_refuses_a_chosen_seed(client: TestClient) -> None:
    """A seed deals every hidden card: offline, ``Game.new(3, "base", seed)`` would show the planter
    the stranger's hand."""
    body = {"players": 3, "deck": "base", "seats": PLANTED, "open": True, "turn_seconds": 60, "seed": 777}
    r = client.post("/api/tables", json=body, headers=CREATOR)
    assert r.status_code == 400
    assert "leave out the seed" in r.json()["detail"]
    assert client.get("/api/open").json()["tables"] == []


def deal_of(g: Game) -> tuple[tuple[str, ...], ...]:
    """Every seat's hand and set-aside cards, by kind: what a seed decides."""
    return tuple(tuple(c.kind for c in (*g.view(s).hand, *g.view(s).aside)) for s in range(g.players))


def test_an_open_table_is_dealt_from_the_servers_randomness(client: TestClient, app: FastAPI) -> None:
    """Two open tables made alike are dealt differently, and not as the seeds a planter would try."""
    guesses = [deal_of(Game.new(3, "base", seed)) for seed in (0, 1, 7, 11, 42, 777)]
    deals = []
    for _ in range(2):
        table = live(client, app, plant(client)["table"])
        deals.append(deal_of(table.game))
        assert table.record.seed not in (0, 1, 7, 11, 42, 777)
        assert deals[-1] not in guesses
    assert deals[0] != deals[1]


def test_one_address_takes_one_seat_at_an_open_table(client: TestClient) -> None:
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]
    planted = client.post(
        "/api/tables",
        json={"players": 3, "deck": "base", "seats": seats, "open": True, "turn_seconds": 60},
        headers=CREATOR,
    ).json()
    own = client.post("/api/open/join", json={"table": planted["table"]}, headers=CREATOR)
    assert own.status_code == 409 and "already" in own.json()["detail"]
    assert (
        client.post("/api/open/join", json={"table": planted["table"]}, headers=STRANGER).status_code == 200
    )
    again = client.post("/api/open/join", json={"table": planted["table"]}, headers=STRANGER)
    assert again.status_code == 409
    # A quick match does not seat the stranger at the table they sit at already: a new one.
    quick = client.post("/api/quick-match", json={}, headers=STRANGER).json()
    assert quick["table"] != planted["table"]
    listed = client.get("/api/open").json()["tables"]
    assert [t["free"] for t in listed if t["table"] == planted["table"]] == [1]


def test_open_tables_are_listed_and_each_free_seat_goes_to_one_person(client: TestClient) -> None:
    """The creator keeps seat 1; the other person seats are offered to anyone, each once."""
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    private = client.post("/api/tables", json={"players": 3, "deck": "base", "seats": seats}).json()
    data = plant(client)
    listed = client.get("/api/open").json()["tables"]
    assert [(t["table"], t["free"]) for t in listed] == [(data["table"], 1)]  # not the private table
    taken = client.post("/api/open/join", json={"table": data["table"]}, headers=STRANGER).json()
    assert (taken["table"], taken["seat"]) == (data["table"], 1)
    assert client.get("/api/open").json()["tables"] == []
    late = {"x-forwarded-for": "192.0.2.44"}
    assert client.post("/api/open/join", json={"table": data["table"]}, headers=late).status_code == 409
    assert client.post("/api/open/join", json={}, headers=late).status_code == 404
    assert private["table"] != data["table"]


def test_a_quick_match_seats_people_at_the_same_open_table_then_at_a_new_one(
    client: TestClient, app: FastAPI
) -> None:
    people = [{"x-forwarded-for": f"192.0.2.{i}"} for i in (1, 2, 3)]
    first = client.post("/api/quick-match", json={"lang": "ru"}, headers=people[0]).json()
    with client.websocket_connect("/ws", headers=people[0]) as ws:  # the first person opens their seat
        Seat(ws).join(first["token"])
        second = client.post("/api/quick-match", json={}, headers=people[1]).json()
        third = client.post("/api/quick-match", json={}, headers=people[2]).json()
    assert (first["seat"], second["seat"], third["seat"]) == (0, 1, 0)
    assert first["table"] == second["table"] != third["table"]
    table = live(client, app, first["table"])
    assert table.record.turn_seconds == 60 and table.record.open
    assert [s.kind for s in table.record.seats] == ["person", "person", "bot"]
    assert table.record.seats[0].lang == "ru"
    with client.websocket_connect("/ws", headers=people[1]) as ws:
        assert Seat(ws).join(second["token"])["seat"] == 1


def test_on_the_servers_own_machine_every_local_player_shares_one_address(client: TestClient) -> None:
    """A server played on one machine (or behind a proxy it was not told to trust) sees every
    person at the loopback address: there, one address is not one person."""
    local = {"x-forwarded-for": "127.0.0.1"}
    planted = client.post(
        "/api/tables",
        json={"players": 3, "deck": "base", "seats": PLANTED, "open": True, "turn_seconds": 60},
        headers=local,
    ).json()
    taken = client.post("/api/open/join", json={"table": planted["table"]}, headers=local)
    assert taken.status_code == 200 and taken.json()["seat"] == 1


def test_a_quick_match_seats_nobody_at_an_open_table_its_people_have_left(client: TestClient) -> None:
    """The red team's trap: open tables whose maker never comes, which a quick match once filled
    oldest first. An open table needs a turn timer, and a quick match needs somebody at the table."""
    untimed = {"players": 3, "deck": "base", "seats": PLANTED, "open": True}
    refused = client.post("/api/tables", json=untimed, headers=CREATOR)
    assert refused.status_code == 400 and "turn timer" in refused.json()["detail"]
    deserted = plant(client)
    quick = client.post("/api/quick-match", json={}, headers=STRANGER).json()
    assert quick["table"] != deserted["table"] and quick["seat"] == 0
    # The lobby's Join still seats a person who chooses the deserted table (its timer runs).
    late = {"x-forwarded-for": "192.0.2.77"}
    joined = client.post("/api/open/join", json={"table": deserted["table"]}, headers=late)
    assert joined.status_code == 200 and joined.json()["seat"] == 1


def test_two_asks_at_once_from_one_address_get_one_seat(client: TestClient, app: FastAPI) -> None:
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]
    body = {"players": 3, "deck": "base", "seats": seats, "open": True, "turn_seconds": 60}
    planted = client.post("/api/tables", json=body, headers=CREATOR).json()
    reg = registry(app)

    async def both() -> list[object]:
        asks = [reg.open_seats.take(planted["table"], "203.0.113.9") for _ in range(4)]
        return list(await asyncio.gather(*asks))

    found = client.portal.call(both)  # type: ignore[union-attr]
    assert sum(1 for f in found if f is not None) == 1


def test_a_quick_match_seats_nobody_at_a_table_with_a_long_turn_timer(client: TestClient) -> None:
    """A maker who keeps the page open and never plays, with an hour a decision, once held the
    strangers a quick match sent there (it promises a minute a decision)."""
    slow = client.post(
        "/api/tables",
        json={"players": 3, "deck": "base", "seats": PLANTED, "open": True, "turn_seconds": 3600},
        headers=CREATOR,
    ).json()
    with client.websocket_connect("/ws", headers=CREATOR) as ws:
        Seat(ws).join(slow["seats"][0]["token"])
        quick = client.post("/api/quick-match", json={}, headers=STRANGER).json()
    assert quick["table"] != slow["table"] and quick["seat"] == 0


def test_stale_open_tables_do_not_keep_quick_match_from_pairing_people(client: TestClient) -> None:
    """51 open tables nobody is at (the store lists the 50 oldest) once kept every quick match from
    finding the one table a person was waiting at."""
    for i in range(51):
        maker = {"x-forwarded-for": f"198.18.0.{i + 1}"}
        client.post(
            "/api/tables",
            json={"players": 3, "deck": "base", "seats": PLANTED, "open": True, "turn_seconds": 60},
            headers=maker,
        )
    a, b = {"x-forwarded-for": "192.0.2.10"}, {"x-forwarded-for": "192.0.2.11"}
    first = client.post("/api/quick-match", json={}, headers=a).json()
    with client.websocket_connect("/ws", headers=a) as ws:
        Seat(ws).join(first["token"])
        second = client.post("/api/quick-match", json={}, headers=b).json()
    assert (second["table"], second["seat"]) == (first["table"], 1)


def test_a_quick_match_seats_nobody_beside_other_free_seats_where_the_game_would_wait(
    client: TestClient, app: FastAPI
) -> None:
    """The clocks start once every person seat was taken: a stranger seated at a table with other
    free seats once waited there for good, at the turn of a seat nobody took."""
    four = [
        {"kind": "person", "name": "Mallory"},
        {"kind": "person"},
        {"kind": "person"},
        {"kind": "bot", "bot": "random"},
    ]
    body = {"players": 4, "deck": "base", "seats": four, "open": True, "turn_seconds": 60}
    wide = client.post("/api/tables", json=body, headers=CREATOR).json()
    with client.websocket_connect("/ws", headers=CREATOR) as ws:
        Seat(ws).join(wide["seats"][0]["token"])
        quick = client.post("/api/quick-match", json={}, headers=STRANGER).json()
        assert quick["table"] != wide["table"]
        # The lobby's join without a table chooses as a quick match does.
        assert (
            client.post("/api/open/join", json={}, headers={"x-forwarded-for": "192.0.2.40"}).status_code
            == 404
        )
        # Where one free seat is left, a quick match fills it, and the game's clocks start.
        client.post(
            "/api/open/join", json={"table": wide["table"]}, headers={"x-forwarded-for": "192.0.2.41"}
        )
        last = client.post("/api/quick-match", json={}, headers={"x-forwarded-for": "192.0.2.42"}).json()
    assert (last["table"], last["seat"]) == (wide["table"], 2)
    assert live(client, app, wide["table"]).waiting_for() == ()


def test_joining_without_a_table_skips_tables_with_a_long_turn_timer(client: TestClient) -> None:
    slow = plant(client, turn_seconds=3600)
    with client.websocket_connect("/ws", headers=CREATOR) as ws:
        Seat(ws).join(slow["seats"][0]["token"])
        answer = client.post("/api/open/join", json={}, headers=STRANGER)
    assert answer.status_code == 404


def test_one_ipv6_site_takes_one_seat_at_an_open_table(client: TestClient) -> None:
    """Seats were counted per /64, so one /48 (65,536 of them) could take every seat of a table."""
    planted = client.post(
        "/api/tables",
        json={"players": 4, "deck": "base", "seats": PLANTED[:2] + [{"kind": "person"}, PLANTED[2]],
              "open": True, "turn_seconds": 60},
        headers=CREATOR,
    ).json()  # fmt: skip
    first = {"x-forwarded-for": "2001:db8:5:1::7"}
    same_site = {"x-forwarded-for": "2001:db8:5:2::7"}
    other_site = {"x-forwarded-for": "2001:db8:6:1::7"}
    assert client.post("/api/open/join", json={"table": planted["table"]}, headers=first).status_code == 200
    assert (
        client.post("/api/open/join", json={"table": planted["table"]}, headers=same_site).status_code == 409
    )
    assert (
        client.post("/api/open/join", json={"table": planted["table"]}, headers=other_site).status_code == 200
    )


def test_a_quick_match_seats_nobody_where_the_only_person_there_has_conceded(client: TestClient) -> None:
    """Connected but conceded, the maker plays no more: a stranger seated there would face bots only."""
    planted = plant(client)
    with client.websocket_connect("/ws", headers=CREATOR) as ws:
        maker = Seat(ws)
        maker.join(planted["seats"][0]["token"])
        maker.send({"type": "concede"})
        maker.until(lambda m: m["type"] == "presence" and m["conceded"] == [0])
        quick = client.post("/api/quick-match", json={}, headers=STRANGER).json()
    assert quick["table"] != planted["table"] and quick["seat"] == 0

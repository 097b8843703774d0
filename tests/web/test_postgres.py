"""The server on PostgreSQL: a whole game against bots, then a restart that finds everything where it was."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from support.web import Seat

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.tables import TableRegistry

SEATS = [
    {"kind": "person", "name": "Ann"},
    {"kind": "bot", "bot": "random"},
    {"kind": "person", "name": "Bob"},
]


def test_a_game_is_played_and_survives_a_restart_on_postgres(postgres_dsn: str) -> None:
    """Ann plays half a game with a bot and Bob; a new server on the same database brings the table back
    at the same state, and the game is finished there; a third server sees it finished."""
    app = create_app(postgres_dsn, bot_runner=InlineBotRunner(), bot_delay=0.0)
    rng = random.Random(3)
    with TestClient(app) as client:
        data = client.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()
        tokens = [data["seats"][0]["token"], data["seats"][2]["token"]]
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            seats = [Seat(a), Seat(b)]
            msgs = [seats[0].join(tokens[0]), seats[1].join(tokens[1])]
            moves = 0
            while moves < 10:
                mover = next((i for i in (0, 1) if msgs[i]["legal"]), None)
                if mover is None:
                    msgs = [s.until(lambda m: m["type"] == "state") for s in seats]
                    continue
                seats[mover].act(rng.choice(msgs[mover]["legal"]))
                moves += 1
                state = msgs[mover]["state"] + 1
                msgs = [s.state_at_least(state) for s in seats]
        halfway = msgs[0]["state"]
    again = create_app(postgres_dsn, bot_runner=InlineBotRunner(), bot_delay=0.0)
    with TestClient(again) as client:
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            seats = [Seat(a), Seat(b)]
            msgs = [seats[0].join(tokens[0]), seats[1].join(tokens[1])]
            assert msgs[0]["state"] >= halfway
            while msgs[0]["result"] is None:
                mover = next((i for i in (0, 1) if msgs[i]["legal"]), None)
                if mover is None:
                    msgs = [s.until(lambda m: m["type"] == "state") for s in seats]
                    continue
                seats[mover].act(rng.choice(msgs[mover]["legal"]))
                state = msgs[mover]["state"] + 1
                msgs = [s.state_at_least(state) for s in seats]
        assert msgs[0]["result"]["decided_by"] in ("score", "positions", "shared")
    third = create_app(postgres_dsn, bot_runner=InlineBotRunner(), bot_delay=0.0)
    with TestClient(third) as client:
        registry: TableRegistry = client.app.state.registry  # type: ignore[attr-defined]
        assert registry.tables == {}  # finished: nothing to load at start
        lobby = client.post("/api/lobby", json={"tokens": [tokens[0]]}).json()["tables"]
        assert lobby[0]["over"] is True


def test_a_pg_dump_taken_during_play_restores_into_a_new_database_and_the_game_goes_on(
    postgres_dsn: str, postgres_server: str
) -> None:
    """The README's PostgreSQL backup: pg_dump -Fc while the server runs, pg_restore into a new database."""
    import subprocess
    import tempfile

    from support.postgres import fresh_database, postgres_bin

    bin_dir = postgres_bin()
    assert bin_dir is not None
    rng = random.Random(11)
    app = create_app(postgres_dsn, bot_runner=InlineBotRunner(), bot_delay=0.0)
    seats = [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "random"},
    ]
    with tempfile.TemporaryDirectory() as scratch, TestClient(app) as client:
        dump = f"{scratch}/games.dump"
        token = client.post("/api/tables", json={"players": 3, "deck": "base", "seats": seats}).json()[
            "seats"
        ][0]["token"]
        with client.websocket_connect("/ws") as ws:
            ann = Seat(ws)
            msg = ann.join(token)
            moves = 0
            while moves < 4:
                if msg["legal"]:
                    ann.act(rng.choice(msg["legal"]))
                    moves += 1
                msg = ann.until(lambda m: m["type"] == "state" and (m["legal"] or m["result"] is not None))
            at_dump = msg["state"]
            subprocess.run([str(bin_dir / "pg_dump"), "-Fc", "-f", dump, postgres_dsn], check=True)
        restored = fresh_database(postgres_server)
        subprocess.run([str(bin_dir / "pg_restore"), "-d", restored, dump], check=True)
    again = create_app(restored, bot_runner=InlineBotRunner(), bot_delay=0.0)
    with TestClient(again) as client, client.websocket_connect("/ws") as ws:
        ann = Seat(ws)
        msg = ann.join(token)
        assert msg["state"] == at_dump
        while msg["result"] is None:
            if msg["legal"]:
                ann.act(rng.choice(msg["legal"]))
            msg = ann.until(lambda m: m["type"] == "state" and (m["legal"] or m["result"] is not None))

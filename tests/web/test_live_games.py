"""Live games anyone may watch: listed in the lobby with their players' ratings and spectator links."""

from __future__ import annotations

from fastapi.testclient import TestClient
from support.accounts import Browser, app_for
from support.web import Seat

from oriflamme.web.ratings import BOT_ANCHORS, BOT_SIGMA


def test_a_watchable_table_is_listed_with_its_ratings_and_a_private_one_is_not() -> None:
    app = app_for(None)
    with TestClient(app) as client:  # type: ignore[arg-type]
        seats = [{"kind": "person", "name": "Sam"}, {"kind": "bot", "bot": "ismcts:easy"}]
        watched = client.post(
            "/api/tables", json={"players": 2, "deck": "base", "seats": seats, "watchable": True}
        ).json()
        client.post("/api/tables", json={"players": 2, "deck": "base", "seats": seats})  # not listed
        sam = Browser(client, "198.51.100.5")
        sam.post("/api/account/register", {"name": "Sam", "password": "sam's password"})
        sam.post("/api/account/links", {"tokens": [watched["seats"][0]["token"]]})
        store = app.app.state.parts.accounts.store  # type: ignore[attr-defined]
        (account,) = client.portal.call(store.run_statements, [("SELECT id FROM accounts", ())])[0]  # type: ignore[union-attr]
        client.portal.call(  # type: ignore[union-attr]
            store.run_statements,
            [("INSERT INTO ratings VALUES (?, 'duel', 1, 30.0, 2.0, 12, 0)", (account,))],
        )
        assert client.get("/api/live").json()["tables"] == []  # nobody sat down yet: nothing to watch
        with client.websocket_connect("/ws") as ws:
            Seat(ws).join(watched["seats"][0]["token"])
        listed = client.get("/api/live").json()["tables"]
        assert [x["table"] for x in listed] == [watched["table"]]
        game = listed[0]
        assert game["spectator"] == watched["spectator"] and game["role"] == "spectator"
        assert "token" not in game["seats"][0]  # a player's link is never shown to watchers
        assert game["seats"][0]["rating"] == {"rating": 24.0, "provisional": False}
        anchor = round(BOT_ANCHORS["ismcts:easy"] - 3 * BOT_SIGMA, 2)
        assert game["seats"][1]["rating"] == {"rating": anchor, "provisional": False}

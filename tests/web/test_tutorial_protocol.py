"""The tutorial over the protocol: the lesson reaches its learner only, and the meta says how to deal it."""

from __future__ import annotations

from fastapi.testclient import TestClient
from support.web import Seat

from oriflamme import tutorial
from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner


def test_the_lesson_goes_to_the_learner_only_and_follows_the_game() -> None:
    with TestClient(create_app(None, bot_runner=InlineBotRunner(), bot_delay=0.0)) as client:
        meta = client.get("/api/meta").json()["tutorial"]
        assert "tutor" not in [b["kind"] for b in client.get("/api/meta").json()["bots"]]
        seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": b} for b in meta["bots"]]
        body = {k: meta[k] for k in ("players", "deck", "seed", "first_player")} | {"seats": seats}
        created = client.post("/api/tables", json=body).json()
        with client.websocket_connect("/ws") as learner_ws, client.websocket_connect("/ws") as watcher_ws:
            learner, watcher = Seat(learner_ws), Seat(watcher_ws)
            first = learner.join(created["seats"][0]["token"])
            assert first["lesson"] == {"key": "tutorial.lesson.placement", "move": "place heir first"}
            assert watcher.join(created["spectator"])["lesson"] is None
            learner.send({"type": "act", "state": first["state"], "action": "place heir first"})
            # The tutor bots play the script's next moves; the learner's next lesson is "keep".
            keep = learner.until(lambda m: m["type"] == "state" and m["lesson"] is not None)
            assert keep["lesson"] == {"key": "tutorial.lesson.keep", "move": "keep"}
            assert keep["state"] == 4


def test_a_game_on_another_deal_has_no_lesson() -> None:
    with TestClient(create_app(None, bot_runner=InlineBotRunner(), bot_delay=0.0)) as client:
        seats = [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "bot": "tutor"},
            {"kind": "bot", "bot": "tutor"},
        ]
        body = {
            "players": 3,
            "deck": "base",
            "seed": (tutorial.SETUP.seed or 0) + 1,
            "first_player": 0,
            "seats": seats,
        }
        created = client.post("/api/tables", json=body).json()
        with client.websocket_connect("/ws") as ws:
            assert Seat(ws).join(created["seats"][0]["token"])["lesson"] is None

"""What a proxy and a dashboard ask of the server: liveness, readiness, Prometheus metrics."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from support.web import Seat

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.guard import ServerLimits

SEATS = [
    {"kind": "person", "name": "Ann"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "random"},
]


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, flags=re.M)
    assert found is not None, f"{name} not in the metrics"
    return float(found.group(1))


def test_ready_only_between_start_and_shutdown() -> None:
    app = create_app(bot_runner=InlineBotRunner(), bot_delay=0.0)
    cold = TestClient(app)  # no lifespan: the store is not open, no table is loaded
    assert cold.get("/healthz").json() == {"status": "ok"}
    assert cold.get("/readyz").status_code == 503
    with TestClient(app) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
    assert cold.get("/readyz").status_code == 503  # shut down


def test_metrics_count_tables_sockets_actions_latency_and_refusals() -> None:
    app = create_app(
        bot_runner=InlineBotRunner(), bot_delay=0.0, limits=ServerLimits(tables_per_address="1/day")
    )
    with TestClient(app) as client:
        before = client.get("/metrics")
        assert before.headers["content-type"].startswith("text/plain")
        assert metric(before.text, "oriflamme_tables_live") == 0
        tokens = client.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()
        assert (
            client.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).status_code == 429
        )
        with client.websocket_connect("/ws") as ws:
            seat = Seat(ws)
            state = seat.join(tokens["seats"][0]["token"])
            during = client.get("/metrics").text
            assert metric(during, "oriflamme_connections") == 1
            assert metric(during, "oriflamme_tables_live") == 1
            seat.act(
                state["legal"][0]["action"] if isinstance(state["legal"][0], dict) else state["legal"][0]
            )
            seat.state_at_least(state["state"] + 1)
        after = client.get("/metrics").text
        assert metric(after, "oriflamme_connections") == 0
        assert metric(after, "oriflamme_actions_total") >= 1
        assert metric(after, "oriflamme_broadcast_seconds_count") == metric(after, "oriflamme_actions_total")
        assert metric(after, 'oriflamme_refused_total{limit="tables_per_address"}') == 1

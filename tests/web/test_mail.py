"""Mail to players through a real SMTP server on loopback (aiosmtpd): "game over" and "your turn",
the unsubscribe link every mail carries, and an outbox that a restarted server sends once."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.accounts import Browser, play_to_the_end
from support.smtp import free_port, smtp_server
from support.web import Seat
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.mail import MailSettings

PUBLIC = "https://oriflamme.example"


def _app(db: str | None, port: int, interval: float = 0.05) -> ProxyHeadersMiddleware:
    mail = MailSettings("127.0.0.1", port, "tables@oriflamme.example", PUBLIC, interval=interval)
    app = create_app(db, bot_runner=InlineBotRunner(), bot_delay=0.0, mail=mail)
    return ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]


def _wait_for(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def _players(
    client: TestClient, seats: list[dict[str, Any]], **extra: Any
) -> tuple[dict[str, Any], list[Browser]]:
    """A table, and for each person seat an account with an e-mail address that holds it."""
    made: dict[str, Any] = client.post(
        "/api/tables", json={"players": len(seats), "deck": "base", "seats": seats, "seed": 4, **extra}
    ).json()
    people = []
    for i, seat in enumerate(seats):
        if seat["kind"] != "person":
            continue
        person = Browser(client, f"198.51.100.{i + 1}")
        person.post("/api/account/register", {"name": seat["name"], "password": f"{seat['name']} password"})
        assert person.post("/api/account/email", {"email": f"{seat['name'].lower()}@example.org"}).json()[
            "mail"
        ]
        person.post("/api/account/links", {"tokens": [made["seats"][i]["token"]]})
        people.append(person)
    return made, people


def _finish(client: TestClient, made: dict[str, Any]) -> None:
    with client.websocket_connect("/ws") as ws0, client.websocket_connect("/ws") as ws1:
        players = [Seat(ws0), Seat(ws1)]
        for player, seat in zip(players, made["seats"], strict=False):
            player.join(seat["token"])
        play_to_the_end(players)


SEATS = [
    {"kind": "person", "name": "Gil"},
    {"kind": "person", "name": "Hana"},
    {"kind": "bot", "bot": "random"},
]


def test_each_player_gets_one_game_over_mail_with_the_replay_and_an_unsubscribe_link_that_works() -> None:
    with smtp_server() as (port, inbox), TestClient(_app(None, port)) as client:  # type: ignore[arg-type]
        made, people = _players(client, SEATS)
        _finish(client, made)
        _wait_for(lambda: len(inbox.mails) == 2)
        assert sorted(m["To"] for m in inbox.mails) == ["gil@example.org", "hana@example.org"]
        mail = next(m for m in inbox.mails if m["To"] == "gil@example.org")
        assert mail["Subject"] == "Oriflamme: the game is over" and mail["From"] == "tables@oriflamme.example"
        body = mail.get_payload(decode=True).decode()  # type: ignore[union-attr]
        assert f"{PUBLIC}/replay/{made['spectator']}" in body and "Hello Gil" in body
        unsubscribe = next(line for line in body.split() if "/api/mail/unsubscribe/" in line)
        answer = client.get(unsubscribe.removeprefix(PUBLIC))
        assert answer.status_code == 200 and "no more mail" in answer.text
        assert people[0].account() == {**people[0].account(), "mail": False}  # type: ignore[dict-item]
        assert client.get("/api/mail/unsubscribe/not-a-token").status_code == 404
        time.sleep(0.3)
        assert len(inbox.mails) == 2  # one each, however often the outbox is read


def test_a_mail_queued_by_a_server_stopped_before_sending_is_sent_after_restart_exactly_once(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "games.sqlite3")
    port = free_port()
    # The first server queues the mails but never gets to send them (its sender sleeps for an hour
    # after one look at an empty outbox, and no SMTP server listens yet).
    with TestClient(_app(db, port, interval=3600)) as client:  # type: ignore[arg-type]
        made, _ = _players(client, SEATS)
        _finish(client, made)
        _wait_for(lambda: bool(client.get("/api/ratings/multi").json()["players"]))
    with smtp_server(port) as (_, inbox):
        for _ in range(2):  # restarted twice: sent by the first, not again by the second
            with TestClient(_app(db, port)) as client:  # type: ignore[arg-type]
                _wait_for(lambda: len(inbox.mails) == 2)
                time.sleep(0.3)
        assert sorted(m["To"] for m in inbox.mails) == ["gil@example.org", "hana@example.org"]


def test_a_turn_based_table_mails_the_person_it_waits_for_who_is_not_there() -> None:
    """Gil moves; Hana, not at the table, is told by mail with her seat's link; Gil, who is, is not."""
    with smtp_server() as (port, inbox), TestClient(_app(None, port)) as client:  # type: ignore[arg-type]
        made, _ = _players(client, SEATS, turn_seconds=24 * 3600, first_player=0)
        with client.websocket_connect("/ws") as ws:
            gil = Seat(ws)
            state = gil.join(made["seats"][0]["token"])
            assert state["legal"]
            gil.act(state["legal"][0])
            gil.state_at_least(state["state"] + 1)
            _wait_for(lambda: len(inbox.mails) == 1)
        mail = inbox.mails[0]
        assert mail["To"] == "hana@example.org" and mail["Subject"] == "Oriflamme: your turn"
        assert f"{PUBLIC}/play/{made['seats'][1]['token']}" in mail.get_payload(decode=True).decode()  # type: ignore[union-attr]

"""What a public server refuses: oversized and chunked bodies, floods of tables and connections,
pages of other sites, and names that would garble other people's screens."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support.web import Seat

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.guard import NETWORK_SHARE, BodyLimit, Guard, Refused, ServerLimits
from oriflamme.web.names import clean_name, looks_like_a_default_name
from oriflamme.web.tables import TableRegistry

SEATS = [
    {"kind": "person", "name": "Ann"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "random"},
]


def make(limits: ServerLimits | None = None) -> TestClient:
    return TestClient(create_app(bot_runner=InlineBotRunner(), bot_delay=0.0, limits=limits))


def tables_of(client: TestClient) -> int:
    registry: TableRegistry = client.app.state.registry  # type: ignore[attr-defined]
    return len(registry.tables)


def create(client: TestClient, **extra: Any) -> Any:
    return client.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS, **extra})


def test_a_body_over_the_limit_is_refused_whether_announced_or_chunked() -> None:
    """A Content-Length over the limit, or a chunked upload without one that runs past it: 413, and the
    app never sees the request (no table is created)."""
    with make(ServerLimits(max_body=2048)) as client:
        padding = {"players": 3, "deck": "base", "seats": SEATS, "rules": {"x" * 4000: 1}}
        announced = client.post(
            "/api/tables", content=json.dumps(padding), headers={"content-type": "application/json"}
        )
        assert announced.status_code == 413
        assert "at most 2048 bytes" in announced.json()["detail"]

        sent: list[int] = []

        def chunks() -> Iterator[bytes]:
            for _ in range(10_000):  # 10 MB if it were all read
                sent.append(1)
                yield b"x" * 1024

        chunked = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert chunked.status_code == 413
        assert tables_of(client) == 0
        assert create(client).status_code == 200  # a normal request still passes
        assert tables_of(client) == 1


def test_creating_tables_too_fast_from_one_address_is_refused_with_when_to_retry() -> None:
    # Windows of a day: a sliding window lends a little as it turns, which a test crossing the
    # turn of a minute would see (see also the accounts' tests).
    with make(ServerLimits(tables_per_address="3/day")) as client:
        assert [create(client).status_code for _ in range(3)] == [200, 200, 200]
        refused = create(client)
        assert refused.status_code == 429
        assert "too many tables from your address (at most 3 per 1 day)" in refused.json()["detail"]
        assert 1 <= int(refused.headers["retry-after"]) <= 86401
        assert tables_of(client) == 3


def test_a_table_accepts_only_so_many_connections() -> None:
    with make(ServerLimits(connections_per_table=2)) as client:
        tokens = create(client).json()
        spectator = tokens["spectator"]
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            Seat(a).join(spectator)
            Seat(b).join(spectator)
            with client.websocket_connect("/ws") as c:
                third = Seat(c)
                third.send({"type": "join", "token": spectator})
                error = third.recv()
                assert error["type"] == "error" and error["code"] == "table_full"
                assert "the most it accepts" in error["message"]


def test_one_address_may_hold_only_so_many_connections() -> None:
    with make(ServerLimits(open_connections_per_address=2)) as client:
        with (
            client.websocket_connect("/ws"),
            client.websocket_connect("/ws"),
            client.websocket_connect("/ws") as third,
        ):
            error = json.loads(third.receive_text())
            assert error["code"] == "too_many_connections"
            assert "close some tabs" in error["message"]
            with pytest.raises(WebSocketDisconnect):
                third.receive_text()
        # Closed connections no longer count.
        with client.websocket_connect("/ws") as again:
            Seat(again).send({"type": "ping"})
            assert json.loads(again.receive_text())["type"] == "pong"


def test_a_page_of_another_site_cannot_open_the_websocket() -> None:
    with make() as client:
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws", headers={"origin": "https://evil.example"}),
        ):
            pass
        assert refused.value.code == 1008
        # Our own page (same host) and clients that are not browsers (no Origin) connect.
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as own:
            Seat(own).send({"type": "ping"})
            assert json.loads(own.receive_text())["type"] == "pong"
    allowed = ServerLimits(allowed_origins=("https://oriflamme.example",))
    with make(allowed) as client:
        with client.websocket_connect("/ws", headers={"origin": "https://oriflamme.example"}) as ok:
            Seat(ok).send({"type": "ping"})
            assert json.loads(ok.receive_text())["type"] == "pong"
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws", headers={"origin": "http://testserver"}),
        ):
            pass


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("Ann\x00ie", "Annie"),
        ("evil\u202egnp.exe", "evilgnp.exe"),
        ("x\u2066y\u2069", "xy"),
        ("  two\n\tlines  ", "two lines"),
        # Nothing visible left: no name, which each page shows as "Player 1" in its own language.
        ("\u200b\u200b", ""),
        ("Zoë", "Zoë"),
        ("Олена", "Олена"),
        ("e\u0301", "é"),
        ("w" * 20 + "\u202e" * 4, "w" * 20),
    ],
)
def test_names_lose_control_direction_and_invisible_characters(given: str, shown: str) -> None:
    with make() as client:
        seats = [{"kind": "person", "name": given}, *SEATS[1:]]
        body = create(client, seats=seats).json()
        assert body["seats"][0]["name"] == shown
    assert clean_name(given) == shown


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        (ServerLimits(tables_per_address="lots"), "tables per address: 'lots' is not a rate"),
        (ServerLimits(connections_per_table=0), "connections per table must be at least 1"),
        (ServerLimits(allowed_origins=("oriflamme.example",)), "must look like https://host"),
    ],
)
def test_unusable_limits_are_refused_with_the_setting_named(limits: ServerLimits, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Guard(limits)


def test_the_guard_counts_open_connections_per_address() -> None:
    guard = Guard(ServerLimits(open_connections_per_address=1))
    guard.open_connection("10.0.0.1")
    with pytest.raises(Refused):
        guard.open_connection("10.0.0.1")
    guard.open_connection("10.0.0.2")  # another address has its own count
    guard.close_connection("10.0.0.1")
    guard.open_connection("10.0.0.1")


def test_spectators_cannot_lock_the_players_out() -> None:
    """The table limit counts spectators; a player's link still gets in, up to 4 connections a seat."""
    with make(ServerLimits(connections_per_table=1, open_connections_per_address=20)) as client:
        tokens = create(client).json()
        ann = tokens["seats"][0]["token"]
        with client.websocket_connect("/ws") as watcher, client.websocket_connect("/ws") as second:
            Seat(watcher).join(tokens["spectator"])
            refused = Seat(second)
            refused.send({"type": "join", "token": tokens["spectator"]})
            assert refused.recv()["code"] == "table_full"
            sockets = [client.websocket_connect("/ws") for _ in range(5)]
            seats = [Seat(s.__enter__()) for s in sockets]
            for seat in seats[:4]:
                seat.join(ann)  # the full table still admits its player, four times
            seats[4].send({"type": "join", "token": ann})
            busy = seats[4].recv()
            assert busy["code"] == "seat_busy" and "open in 4 places already" in busy["message"]
            for s in sockets:
                s.__exit__(None, None, None)
        metrics = client.get("/metrics").text
        assert 'oriflamme_refused_total{limit="connections_per_table"} 1.0' in metrics
        assert 'oriflamme_refused_total{limit="connections_per_seat"} 1.0' in metrics


def test_a_refused_body_closes_the_connection() -> None:
    with make(ServerLimits(max_body=100)) as client:
        refused = client.post("/api/tables", content=b"x" * 200, headers={"content-type": "application/json"})
        assert refused.status_code == 413 and refused.headers["connection"] == "close"
        assert 'oriflamme_refused_total{limit="max_body"} 1.0' in client.get("/metrics").text


@pytest.mark.parametrize(
    ("allowed", "origin", "host", "ok"),
    [
        (None, "http://TestServer", "testserver", True),
        (None, "http://testserver:80", "TESTSERVER", True),
        (None, "https://testserver", "testserver:443", True),
        (None, "http://testserver:8080", "testserver", False),
        (None, "null", "testserver", False),
        (None, "http://[::1]:8000", "[::1]:8000", True),
        (("https://Oriflamme.example:443",), "https://oriflamme.example", "internal:8000", True),
        (("https://oriflamme.example",), "http://oriflamme.example", "internal:8000", False),
    ],
)
def test_origins_compare_as_browsers_write_them(
    allowed: tuple[str, ...] | None, origin: str, host: str, ok: bool
) -> None:
    assert Guard(ServerLimits(allowed_origins=allowed)).origin_allowed(origin, host) is ok


def test_rates_are_counted_per_ipv6_network_and_checked_for_sense() -> None:
    guard = Guard(ServerLimits(tables_per_address="2/day;3/month"))
    guard.create_table("2001:db8:1:2::1")
    guard.create_table("2001:db8:1:2:ffff::9")  # the same /64: the same machine's many addresses
    with pytest.raises(Refused, match="at most 2 per 1 day"):
        guard.create_table("2001:db8:1:2::77")
    guard.create_table("2001:db8:1:3::1")  # another network
    guard.create_table("::ffff:10.0.0.1")
    with pytest.raises(ValueError, match="allows nothing"):
        Guard(ServerLimits(tables_per_address="0/minute"))


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("A" + "\u0336\u0489\u20dd" * 8, "A\u0336\u0489"),
        ("\u3164\u3164", ""),
        ("\u2800Bob\u2800", "Bob"),
        ("می\u200cخواهم", "می\u200cخواهم"),
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),
        ("\u200dx\u200d", "x"),
    ],
)
def test_mark_floods_and_blank_letters_go_and_needed_joiners_stay(given: str, shown: str) -> None:
    assert clean_name(given) == shown


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("a" + "\u200d" * 40 + "b", "a\u200db"),  # a run of joiners is one joiner
        ("a\u200c\u200d\u200cb", "a\u200cb"),
        ("Bob" + "\u034f" * 30, "Bob"),  # the grapheme joiner draws nothing
        ("Al\u17b4\u17b5\u17b4i", "Ali"),  # nor do Khmer's inherent vowels
        ("x\ufe00\ufe01y", "xy"),  # variation selectors that select nothing here
        ("\u2764\ufe0f", "\u2764\ufe0f"),  # the emoji selector after its character stays
        ("\u2764\ufe0f\ufe0f\ufe0f", "\u2764\ufe0f"),
        ("\u200d\u034f\ufe0f", ""),
    ],
)
def test_runs_of_joiners_and_invisible_marks_go(given: str, shown: str) -> None:
    assert clean_name(given) == shown


@pytest.mark.parametrize(
    "name", ["Bot 2", "bot 2", "ＢＯＴ　２", "Bot2", "Игрок 3", "Гравець 1", "Joueur 4", "Player"]
)
def test_a_person_may_not_take_a_seats_default_name(name: str) -> None:
    assert looks_like_a_default_name(name)
    with make() as client:
        refused = create(client, seats=[{"kind": "person", "name": name}, *SEATS[1:]])
        assert refused.status_code == 400 and "default name" in refused.json()["detail"]
        data = create(client).json()
        with client.websocket_connect("/ws") as ws:
            seat = Seat(ws)
            seat.join(data["seats"][0]["token"])
            seat.send({"type": "name", "name": name})
            seat.expect_error("reserved_name")
    assert [s for s in ("Bottom 2", "Robot", "Anne", "Player One") if looks_like_a_default_name(s)] == []


def test_every_languages_default_names_are_reserved() -> None:
    """The words of "Bot {n}" and "Player {n}" in each catalog the pages speak."""
    folder = resources.files("oriflamme.web") / "locales"
    for lang in ("en", "ru", "uk", "pl", "fr"):
        catalog = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        for key in ("web.default_bot", "web.name_placeholder"):
            assert looks_like_a_default_name(catalog[key].replace("{n}", "7")), (lang, key)


def test_an_ipv6_network_gets_eight_quotas_not_one_per_64() -> None:
    """A /48 holds 65,536 /64 networks: counted by /64 alone, it had as many quotas."""
    guard = Guard(ServerLimits(tables_per_address="2/day", open_connections_per_address=1))
    made = 0
    with pytest.raises(Refused, match="too many tables from your network"):
        for i in range(100):
            guard.create_table(f"2001:db8:1:{i:x}::1")
            made += 1
    assert made == 2 * NETWORK_SHARE
    guard.create_table("2001:db8:2::1")  # another /48 has its own
    guard.create_table("192.0.2.1")
    for i in range(NETWORK_SHARE):
        guard.open_connection(f"2001:db8:3:{i:x}::1")
    with pytest.raises(Refused, match="connections open from your network"):
        guard.open_connection("2001:db8:3:ffff::1")
    guard.close_connection("2001:db8:3:0::1")
    guard.open_connection("2001:db8:3:ffff::1")


@pytest.mark.parametrize("chunked", [False, True], ids=["announced", "chunked"])
def test_the_body_limit_is_exact_at_both_checks(chunked: bool) -> None:
    """A body of exactly the limit reaches the app; one byte more does not (with a length or in chunks)."""
    body = json.dumps({"players": 3, "deck": "base", "seats": SEATS}).encode()
    body += b" " * (2048 - len(body))  # JSON allows trailing white space
    assert len(body) == 2048

    def post(data: bytes) -> int:
        if chunked:

            def pieces() -> Iterator[bytes]:
                for i in range(0, len(data), 100):
                    yield data[i : i + 100]

            content: bytes | Iterator[bytes] = pieces()
        else:
            content = data
        return client.post(
            "/api/tables", content=content, headers={"content-type": "application/json"}
        ).status_code

    with make(ServerLimits(max_body=2048)) as client:
        assert post(body) == 200
        assert post(body + b" ") == 413
        assert tables_of(client) == 1


@pytest.mark.parametrize(("length", "status"), [(2048, 200), (2049, 413)])
def test_an_announced_length_over_the_limit_is_refused_before_a_byte_is_read(
    length: int, status: int
) -> None:
    """The length check on its own, at its edge: a refusal reads nothing of the body (which may never come)."""
    read: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        read.append(1)
        return {"type": "http.request", "body": b"x" * length, "more_body": False}

    answers: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    scope = {"type": "http", "headers": [(b"content-length", str(length).encode())]}
    asyncio.run(BodyLimit(app, max_body=2048)(scope, receive, send))
    assert answers[0]["status"] == status
    assert read == ([] if status == 413 else [1])

"""Several server processes on one PostgreSQL database: one owner per table, actions routed to it, takeover.

Two apps run side by side in this test process (each TestClient runs its app
on its own event loop, in its own thread), sharing a fresh database, as two
workers behind a proxy would. Killing a real process is in
``test_cluster_failover.py``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
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


def _app(dsn: str) -> Any:
    return create_app(dsn, bot_runner=InlineBotRunner(), bot_delay=0.0, lease_seconds=1.0)


def _registry(client: TestClient) -> TableRegistry:
    registry: TableRegistry = client.app.state.registry  # type: ignore[attr-defined]
    return registry


def _play(
    seats: list[Seat], msgs: list[dict[str, Any]], rng: random.Random, moves: int | None
) -> list[dict[str, Any]]:
    """Random legal moves by whichever seat is to move, until ``moves`` were made or the game ends."""
    made = 0
    while msgs[0]["result"] is None and (moves is None or made < moves):
        # Decide on the newest state every seat has seen: a seat's last frame may be older than
        # another's (a bot moved in between), and an action on it would be refused as stale.
        top = max(m["state"] for m in msgs)
        msgs = [s.state_at_least(top) for s in seats]
        if len({m["state"] for m in msgs}) > 1:
            continue
        mover = next((i for i in range(len(seats)) if msgs[i]["legal"]), None)
        if mover is None:
            msgs = [s.until(lambda m: m["type"] == "state") for s in seats]
            continue
        seats[mover].act(rng.choice(msgs[mover]["legal"]))
        made += 1
        state = msgs[mover]["state"] + 1
        msgs = [s.state_at_least(state) for s in seats]
    return msgs


def _eventually(check: Any, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _stored_actions(dsn: str, table_id: str) -> list[str]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT action FROM actions WHERE table_id=%s ORDER BY idx", (table_id,)
        ).fetchall()
    return [r[0] for r in rows]


def test_two_processes_play_one_table_each_seat_on_its_own_process(postgres_dsn: str) -> None:
    """The table is made on the first process, which owns it; Bob plays through the second, whose actions
    are routed to the owner; both see the same states, every state the clients saw is stored, and the
    second process never writes."""
    rng = random.Random(5)
    with TestClient(_app(postgres_dsn)) as one, TestClient(_app(postgres_dsn)) as two:
        data = one.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()
        table_id = data["table"]
        with one.websocket_connect("/ws") as a, two.websocket_connect("/ws") as b:
            seats = [Seat(a), Seat(b)]
            msgs = [seats[0].join(data["seats"][0]["token"]), seats[1].join(data["seats"][2]["token"])]
            assert _registry(one).tables[table_id].owned
            assert not _registry(two).tables[table_id].owned
            msgs = _play(seats, msgs, rng, None)
            # Presence crosses processes: each side sees both people online.
            for side in (one, two):
                assert _eventually(
                    lambda side=side: _registry(side).tables[table_id].online() == [True, False, True]
                )
        final = msgs[0]["state"]
        assert msgs[1]["state"] == final
        assert msgs[0]["result"] == msgs[1]["result"]
        assert len(_stored_actions(postgres_dsn, table_id)) == final
        assert _registry(one).tables.get(table_id) is None or _registry(one).tables[table_id].finished


def test_an_illegal_action_through_the_second_process_is_refused_and_changes_nothing(
    postgres_dsn: str,
) -> None:
    with TestClient(_app(postgres_dsn)) as one, TestClient(_app(postgres_dsn)) as two:
        data = one.post(
            "/api/tables", json={"players": 3, "deck": "base", "seats": SEATS, "first_player": 2}
        ).json()
        with two.websocket_connect("/ws") as b:
            bob = Seat(b)
            msg = bob.join(data["seats"][2]["token"])
            assert msg["legal"], "Bob (seat 3) moves first"
            bob.act("place nothing at 99")
            bob.expect_error("illegal")
            bob.act(msg["legal"][0], state=msg["state"] + 5)
            bob.expect_error("stale")
        assert _stored_actions(postgres_dsn, data["table"]) == []


def test_when_the_owner_stops_the_other_process_takes_the_table_and_its_bot_moves(postgres_dsn: str) -> None:
    """Ann plays through the first process (the owner, which runs the bot), Bob through the second. The
    first stops cleanly; the second takes the table over from the stored actions, Ann comes back through
    it, and the game is finished there, every action in the store."""
    rng = random.Random(9)
    one_client = TestClient(_app(postgres_dsn))
    one = one_client.__enter__()
    with TestClient(_app(postgres_dsn)) as two:
        data = one.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()
        table_id = data["table"]
        ann_token, bob_token = data["seats"][0]["token"], data["seats"][2]["token"]
        with two.websocket_connect("/ws") as b:
            bob = Seat(b)
            with one.websocket_connect("/ws") as a:
                ann = Seat(a)
                msgs = _play([ann, bob], [ann.join(ann_token), bob.join(bob_token)], rng, 6)
                assert _registry(one).tables[table_id].owned
            seen = msgs[1]["state"]
            one_client.__exit__(None, None, None)
            assert _eventually(
                lambda: table_id in _registry(two).tables and _registry(two).tables[table_id].owned
            )
            with two.websocket_connect("/ws") as a:
                ann = Seat(a)
                msgs = _play([ann, bob], [ann.join(ann_token), bob.state_at_least(0)], rng, None)
        assert msgs[0]["result"] is not None and msgs[0]["result"] == msgs[1]["result"]
        stored = _stored_actions(postgres_dsn, table_id)
        assert len(stored) == msgs[0]["state"] > seen


def test_a_table_moves_to_the_process_its_people_are_connected_to(postgres_dsn: str) -> None:
    """The table is made on the first process, but its only person plays through the second: the first
    hands the table over and forgets it, so that no process keeps a replica nobody looks at."""
    rng = random.Random(4)
    with TestClient(_app(postgres_dsn)) as one, TestClient(_app(postgres_dsn)) as two:
        data = one.post(
            "/api/tables", json={"players": 2, "deck": "base", "seats": [SEATS[1], SEATS[2]]}
        ).json()
        table_id = data["table"]
        assert _registry(one).tables[table_id].owned
        with two.websocket_connect("/ws") as b:
            bob = Seat(b)
            msgs = [bob.join(data["seats"][1]["token"])]
            assert _eventually(
                lambda: table_id in _registry(two).tables and _registry(two).tables[table_id].owned
            )
            assert _eventually(lambda: table_id not in _registry(one).tables)
            msgs = _play([bob], msgs, rng, None)
        assert len(_stored_actions(postgres_dsn, table_id)) == msgs[0]["state"]


def _record(table_id: str) -> Any:
    from oriflamme.web.store import SeatRecord, TableRecord

    seats = tuple(SeatRecord("person", f"P{i}", f"tok-{table_id}-{i}") for i in range(2))
    return TableRecord(
        table_id,
        time.time(),
        "base",
        2,
        ("a",) * 10,
        {},
        1,
        None,
        seats,
        f"spec-{table_id}",
        f"host-{table_id}",
    )


def test_the_store_writes_only_for_the_lease_holder_and_a_takeover_waits_for_expiry(
    postgres_dsn: str,
) -> None:
    """Two processes' stores on one database: the second cannot claim a live lease nor write to the table;
    once the first's lease expires the second claims it, and then the first's writes are refused."""
    import asyncio

    from oriflamme.web.pg_store import PostgresStore
    from oriflamme.web.store_errors import LeaseLost, StorageError

    async def scenario() -> None:
        one = PostgresStore(postgres_dsn, owner="one")
        two = PostgresStore(postgres_dsn, owner="two")
        await one.open()
        await two.open()
        try:
            await one.create_table(_record("t1"))
            await one.create_table(_record("t2"))
            assert await one.claim("t1", 0.5)
            assert await one.claim("t2", 30)
            assert not await two.claim("t1", 30)
            assert await two.lease_owner("t1") == "one"
            with pytest.raises(LeaseLost):
                await two.append_action("t1", 0, "a")
            # Several appends in one batch: each answered on its own.
            results = await asyncio.gather(
                one.append_action("t1", 0, "x"),
                one.append_action("t2", 0, "y"),
                two.append_action("t2", 1, "z"),
                return_exceptions=True,
            )
            assert results[0] is None and results[1] is None and isinstance(results[2], LeaseLost)
            with pytest.raises(StorageError, match="stored already"):
                await one.append_action("t1", 0, "again")
            await asyncio.sleep(0.6)
            assert await one.orphaned_tables() == ["t1"]
            assert await two.claim("t1", 30)
            with pytest.raises(LeaseLost):
                await one.append_action("t1", 1, "late")
            await two.append_action("t1", 1, "w")
            assert await two.actions_since("t1", 0) == ["x", "w"]
            assert await one.actions_since("t2", 0) == ["y"]
            # A clean stop hands the leases back at once.
            await one.release_all()
            assert await two.orphaned_tables() == ["t2"]
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())


def test_a_rematch_asked_through_one_process_reaches_the_players_at_the_other(postgres_dsn: str) -> None:
    """Ann asks through the first process; Bob, connected to the second, is told his own new link
    (through the bus), and asking through the second gives the same table."""
    rng = random.Random(12)
    with TestClient(_app(postgres_dsn)) as one, TestClient(_app(postgres_dsn)) as two:
        data = one.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()
        ann_token, bob_token = data["seats"][0]["token"], data["seats"][2]["token"]
        with one.websocket_connect("/ws") as a, two.websocket_connect("/ws") as b:
            ann, bob = Seat(a), Seat(b)
            msgs = _play([ann, bob], [ann.join(ann_token), bob.join(bob_token)], rng, None)
            assert msgs[0]["result"] is not None
            first = one.post("/api/rematch", json={"token": ann_token}).json()
            told = bob.until(lambda m: m["type"] == "rematch")
        again = two.post("/api/rematch", json={"token": bob_token}).json()
        assert first["table"] == again["table"] == f"{data['table']}~2"
        assert told["token"] == again["token"] != bob_token


def test_a_turn_timer_survives_a_takeover(postgres_dsn: str) -> None:
    """The new owner counts a person's time from the stored time of the last action, not from the
    takeover: a person cannot stall a table by outliving its process."""
    one_client = TestClient(_app(postgres_dsn))
    one = one_client.__enter__()
    with TestClient(_app(postgres_dsn)) as two:
        body = {"players": 3, "deck": "base", "seats": SEATS, "turn_seconds": 60, "first_player": 0}
        data = one.post("/api/tables", json=body).json()
        table_id = data["table"]
        with one.websocket_connect("/ws") as a:
            ann = Seat(a)
            first = ann.join(data["seats"][0]["token"])
            ann.act(first["legal"][0])
            ann.state_at_least(1)
        time.sleep(2.0)
        one_client.__exit__(None, None, None)
        assert _eventually(
            lambda: table_id in _registry(two).tables and _registry(two).tables[table_id].owned
        )
        table = _registry(two).tables[table_id]
        stored = two.portal.call(_registry(two).store.load_table, table_id)  # type: ignore[union-attr]
        # The last action's stored time, which the first process counted from too (not the takeover's).
        assert stored is not None and table.turn_started == stored.last_at
        assert time.time() - table.turn_started > 1.9
        before = time.time()
        left = table.turn_left()
        # Bob's turn, or Ann's with her time running since the stored action, not since the takeover.
        assert left is None or left <= table.turn_started + 60 - before


def test_a_chat_line_said_at_one_process_is_heard_at_the_other(postgres_dsn: str) -> None:
    with TestClient(_app(postgres_dsn)) as one, TestClient(_app(postgres_dsn)) as two:
        data = one.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()
        with one.websocket_connect("/ws") as a, two.websocket_connect("/ws") as b:
            ann, bob = Seat(a), Seat(b)
            ann.join(data["seats"][0]["token"])
            bob.join(data["seats"][2]["token"])
            ann.send({"type": "chat", "text": "good luck"})
            line = bob.until(lambda m: m["type"] == "chat")["line"]
            assert (line["seat"], line["text"]) == (0, "good luck")
            ann.send({"type": "chat_mod", "seat": 2, "mute": True})
            assert bob.until(lambda m: m["type"] == "chat_state" and m["muted"])["muted"] == [2]

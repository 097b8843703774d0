"""A client's action at a process that does not own its table, while the table changes hands.

The routing is driven here without a database or a second process: the bus,
the lease table and the owner's answers are scripted, so that each race is
played out the same way every time. (Two real processes sharing PostgreSQL
are in ``test_cluster.py`` and ``test_cluster_failover.py``.)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from oriflamme.web import cluster_routing
from oriflamme.web.cluster_routing import ClusterRouting
from oriflamme.web.table_host import MOVED

TABLE = "T1"


@dataclass
class Table:
    """What :meth:`ClusterRouting.forward` and :meth:`~ClusterRouting.take_over` use of a live table."""

    owned: bool = False
    owner_hint: str | None = "A"
    state: int = 5
    forwarded: dict[int, float] = field(default_factory=dict)
    claimed_at: float = 0.0
    acted: list[tuple[int, int, str]] = field(default_factory=list)
    bots_started: int = 0
    followed: list[tuple[int, str]] = field(default_factory=list)
    record: Any = field(default_factory=lambda: SimpleNamespace(id=TABLE))

    async def try_act(self, seat: int, state: int, text: str, received: float) -> tuple[str, str] | None:
        if not self.owned:
            return MOVED, "not here"
        self.acted.append((seat, state, text))
        self.state += 1
        return None

    async def catch_up(self) -> None:
        await asyncio.sleep(0)

    def schedule_bot(self) -> None:
        self.bots_started += 1

    def follow(self, index: int, text: str) -> bool:
        self.followed.append((index, text))
        return True


@dataclass
class Host:
    tables: dict[str, Any]
    closing: bool = False
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    async def get(self, table_id: str) -> Any:
        return self.tables.get(table_id)

    def unload(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            await work

        self.tasks.append(asyncio.ensure_future(run()))

    async def tell_rematch(self, table: Any) -> None:
        pass


class Store:
    """The lease table as the routing sees it: each lookup gives the next scripted owner."""

    def __init__(self, owners: list[str | None], claims: bool = True) -> None:
        self.owners = owners
        self.claims = claims
        self.claimed = 0
        self.expired = 0

    async def lease_owner(self, table_id: str) -> str | None:
        return self.owners.pop(0) if len(self.owners) > 1 else self.owners[0]

    async def claim(self, table_id: str, seconds: float) -> bool:
        self.claimed += 1
        return self.claims

    async def expire(self, table_id: str) -> None:
        self.expired += 1


class Cluster:
    """The bus: an action forwarded to another process is answered by ``answer`` (None: never)."""

    def __init__(self, store: Store, answer: str | None) -> None:
        self.worker = "B"
        self.store = store
        #: Short, so that the routing's patience (which outlasts a lease) is the tests' to set.
        self.lease_seconds = 0.05
        self.answer = answer
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.routing: ClusterRouting | None = None

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        self.sent.append((channel, message))
        if message.get("k") == "act" and self.answer is not None:
            assert self.routing is not None
            reply = {"k": "r", "q": message["q"], "e": None if self.answer == "ok" else self.answer}
            asyncio.get_running_loop().call_soon(self.routing.on_bus, "w_B", reply)


class Client:
    def __init__(self) -> None:
        self.errors: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.errors.append(json.loads(text))


def _routing(table: Table, store: Store, answer: str | None) -> tuple[ClusterRouting, Cluster]:
    cluster = Cluster(store, answer)
    # The fakes stand in for the registry and the PostgreSQL cluster: only what the routing calls.
    routing = ClusterRouting(Host({TABLE: table}), cluster)  # type: ignore[arg-type]
    cluster.routing = routing
    return routing, cluster


def _forward(routing: ClusterRouting, table: Table, client: Client) -> None:
    asyncio.run(routing.forward(table, client, 1, table.state, "place 3 at 0"))  # type: ignore[arg-type]


def test_an_action_sent_while_the_owner_hands_the_table_to_this_process_is_played_here() -> None:
    """The owner answers 'moved' (it has let the table go), the lease still names it once, then nobody:
    this process takes the table and plays the action; the person is not told to try again."""
    table = Table()
    routing, cluster = _routing(table, Store(["A", None, "B"]), MOVED)
    client = Client()
    _forward(routing, table, client)
    assert client.errors == []
    assert table.owned and table.acted == [(1, 5, "place 3 at 0")]
    assert [channel for channel, _ in cluster.sent] == ["w_A", "w_A"]


def test_an_action_the_owner_accepts_is_stored_there_and_not_played_here() -> None:
    table = Table()
    routing, cluster = _routing(table, Store(["A"]), "ok")
    client = Client()
    _forward(routing, table, client)
    assert client.errors == [] and table.acted == [] and not table.owned
    ((channel, message),) = cluster.sent
    assert channel == "w_A" and message["a"] == "place 3 at 0" and message["n"] == 5 and message["s"] == 1


def test_an_owners_refusal_reaches_the_person_with_its_reason() -> None:
    table = Table()
    routing, _ = _routing(table, Store(["A"]), "stale")
    client = Client()
    _forward(routing, table, client)
    assert [(e["type"], e["code"], e["state"]) for e in client.errors] == [("error", "stale", 5)]
    assert table.acted == []


def test_an_owner_that_never_answers_and_keeps_its_lease_gets_the_person_an_error_not_a_hang(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cluster_routing, "FORWARD_TIMEOUT", 0.02)
    monkeypatch.setattr(cluster_routing, "FORWARD_PATIENCE", 0.2)
    table = Table()
    routing, cluster = _routing(table, Store(["A"]), None)
    client = Client()
    _forward(routing, table, client)  # returns: the patience bounds the wait (else the test would hang)
    assert [e["code"] for e in client.errors] == ["unavailable"]
    assert table.acted == [] and not table.owned
    assert len(cluster.sent) >= 2, "the owner was asked again after a silence"


def test_an_owner_that_goes_silent_and_loses_its_lease_is_replaced_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The owner died: its lease is still live for the first retries, then expires; the action is played here."""
    monkeypatch.setattr(cluster_routing, "FORWARD_TIMEOUT", 0.02)
    table = Table()
    routing, _ = _routing(table, Store(["A", "A", "A", None, "B"]), None)
    client = Client()
    _forward(routing, table, client)
    assert client.errors == [] and table.acted == [(1, 5, "place 3 at 0")]


def test_a_table_another_process_claims_first_is_forwarded_to_it() -> None:
    """Nobody holds the lease, but this process's claim fails (another one won it): the action goes there."""
    table = Table(owner_hint=None)
    routing, cluster = _routing(table, Store([None, "C"], claims=False), "ok")
    client = Client()
    _forward(routing, table, client)
    assert client.errors == [] and table.acted == []
    assert [channel for channel, _ in cluster.sent] == ["w_C"]


def test_two_take_overs_at_once_start_the_tables_bot_once() -> None:
    """The owner's hand-over message and a person's action both claim the table: it is taken once."""
    table = Table()
    routing, _ = _routing(table, Store([None]), None)

    async def both() -> list[bool]:
        return list(await asyncio.gather(routing.take_over(TABLE), routing.take_over(TABLE)))

    assert asyncio.run(both()) == [True, True]
    assert table.owned and table.owner_hint is None and table.bots_started == 1


def test_a_take_over_that_cannot_read_the_tables_actions_lets_its_lease_lapse() -> None:
    """Claimed, but the stored actions could not be read (the database busy): the table is not played
    here, so the lease is let lapse at once for the next sweep, not held by a process not playing it."""

    class Unreadable(Table):
        async def catch_up(self) -> None:
            raise OSError("the database did not answer")

    table = Unreadable()
    store = Store([None])
    routing, _ = _routing(table, store, None)
    with pytest.raises(OSError):
        asyncio.run(routing.take_over(TABLE))
    assert not table.owned and table.bots_started == 0 and store.expired == 1


def test_a_hint_naming_this_process_that_cannot_claim_the_table_gives_way_to_the_lease() -> None:
    """The hint names this process (it heard its own announcement back after losing the table), but
    another process holds the lease: the claim fails, the hint is dropped, the action goes there."""
    table = Table(owner_hint="B")
    routing, cluster = _routing(table, Store(["C"], claims=False), "ok")
    client = Client()
    _forward(routing, table, client)
    assert client.errors == [] and table.acted == []
    assert [channel for channel, _ in cluster.sent] == ["w_C"]


def test_an_announcement_sets_the_owner_hint_unless_it_is_this_processs_own() -> None:
    table = Table(owner_hint=None, state=10)
    routing, _ = _routing(table, Store([None]), None)
    hints = []
    for worker in ("B", "A"):
        routing.on_bus("t_" + TABLE, {"k": "a", "i": 10, "a": "keep", "w": worker})
        hints.append(table.owner_hint)
    assert hints == [None, "A"]
    assert table.followed == [(10, "keep"), (10, "keep")]

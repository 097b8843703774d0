"""Several server processes sharing tables: who plays each table, and what they tell each other.

With one process (the default) none of this runs. With several behind a load
balancer (:mod:`.cluster`: a PostgreSQL lease per table, a bus between the
processes), each table is played by the process holding its lease, and the
others keep a replica fed by the actions announced on the bus:

- an action made at a replica is forwarded to the owner, who checks, stores
  and announces it (or, if nobody owns the table any more, taken over here);
- a table whose people are all connected to another process moves there;
- a process that lost a lease follows the table as a replica, and the tables
  of a process that died are taken over at the next heartbeat;
- presence, chat, names, concessions, away seats and rematches are announced
  so that every page shows the same table wherever it is connected.

What a message from the bus puts into a table (a seat number, a chat line, a
name) is checked again before it reaches the table's state; a message of the
wrong shape fails in its handler and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from .channels import table_channel, worker_channel
from .chat import TableChat
from .client import Client
from .live_table import LiveTable
from .names import clean_name
from .protocol import error_message
from .retry_pauses import jittered_pauses
from .table_host import MOVED

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("oriflamme.web")

#: Seconds a forwarded action waits for the owner's answer before the owner is presumed gone.
FORWARD_TIMEOUT = 3.0
#: Seconds an action may wait in all for a table that changes hands (longer than a lease, so that a
#: dead owner's tables are taken over within it) before the person is asked to try again.
FORWARD_PATIENCE = 10.0


def _pauses() -> Iterator[float]:
    """Seconds to wait before asking again who holds a table: 10 ms to a window of 20 ms doubling to 0.5 s.

    Drawn at random, so that processes waiting on the same table ask the store at different moments.
    """
    return jittered_pauses(0.02, 0.5, least=0.01)


class RoutingHost(Protocol):
    """What the routing needs from the registry of live tables (:class:`~.tables.TableRegistry`)."""

    tables: dict[str, LiveTable]
    closing: bool

    async def get(self, table_id: str) -> LiveTable | None: ...

    def unload(self, table_id: str) -> None: ...

    def spawn(self, work: Awaitable[Any]) -> None: ...

    async def tell_rematch(self, table: LiveTable) -> None: ...


class ClusterRouting:
    """This process's side of the cluster: it answers the bus and keeps the table leases straight."""

    def __init__(self, host: RoutingHost, cluster: Cluster) -> None:
        self.host = host
        self.cluster = cluster
        #: Actions forwarded to other processes, waiting for their answer, by request id.
        self._requests: dict[str, asyncio.Future[dict[str, Any]]] = {}
        cluster.on_message = self.on_bus
        cluster.on_beat = self.on_beat
        cluster.on_reconnect = self.on_reconnect

    # -- what this process tells the others

    def _tell(self, table: LiveTable, message: dict[str, Any]) -> None:
        self.host.spawn(
            self.cluster.send(table_channel(table.record.id), {**message, "w": self.cluster.worker})
        )

    def announce_chat(self, table: LiveTable, message: dict[str, Any]) -> None:
        self._tell(table, message)

    def announce_concession(self, table: LiveTable, seat: int) -> None:
        self._tell(table, {"k": "cd", "s": seat})

    def announce_away(self, table: LiveTable, seat: int, away: bool) -> None:
        self._tell(table, {"k": "aw", "s": seat, "v": away})

    def announce_rename(self, table: LiveTable, seat: int, name: str) -> None:
        self._tell(table, {"k": "nm", "s": seat, "n": name})

    def announce_rematch(self, table: LiveTable) -> None:
        self._tell(table, {"k": "rm"})

    def announce_presence(self, table: LiveTable) -> None:
        """Tell the other processes holding ``table`` which seats are connected here."""
        if not self.host.closing:
            self._tell(
                table,
                {"k": "p", "o": table.local_online(), "j": sorted(table.joined), "s": table.local_watchers()},
            )

    async def forward(self, table: LiveTable, client: Client, seat: int, state: int, text: str) -> None:
        """Pass a client's action to the process that owns the table, or take the table if nobody does."""
        cluster = self.cluster
        table_id = table.record.id
        loop = asyncio.get_running_loop()
        # Not a count of tries: while a table changes hands the old owner says "moved" and the lease
        # may name it, or nobody, for a moment; the action waits that out rather than fail. The
        # patience outlasts a lease (which a server may set longer), so a dead owner's table is
        # taken over within it.
        deadline = loop.time() + max(FORWARD_PATIENCE, 2 * cluster.lease_seconds + FORWARD_TIMEOUT)
        pauses = _pauses()
        while loop.time() < deadline:
            if table.owned:
                received = table.forwarded.pop(state, time.perf_counter())
                problem = await table.try_act(seat, state, text, received)
                if problem is None:
                    return
                if problem[0] != MOVED:
                    client.send(error_message(*problem, table.state))
                    return
                continue
            owner = table.owner_hint or await cluster.store.lease_owner(table_id)
            if owner is None or owner == cluster.worker:
                # Nobody holds the table (its process stopped or died): play it here.
                taken = await self.take_over(table_id)
                # The registry may hold a fresher copy of the table than the client's.
                table = self.host.tables.get(table_id, table)
                if not taken or not table.owned:
                    # Another process claimed it first: ask the store again who.
                    table.owner_hint = None
                    await asyncio.sleep(next(pauses))
                continue
            request = secrets.token_hex(8)
            answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._requests[request] = answer
            message = {
                "k": "act",
                "t": table_id,
                "s": seat,
                "n": state,
                "a": text,
                "r": cluster.worker,
                "q": request,
            }
            try:
                await cluster.send(worker_channel(owner), message)
                # The full timeout even past the deadline: an action sent may be applied, and the
                # person is not to be told "try again" while its answer is on the way.
                reply = await asyncio.wait_for(answer, FORWARD_TIMEOUT)
            except TimeoutError:
                table.owner_hint = None  # gone, or slow: look the owner up again
                continue
            finally:
                self._requests.pop(request, None)
            code = reply.get("e")
            if code is None:
                return  # stored: the announcement brings the new state to this client
            if code == MOVED:
                # The owner let the table go: its successor may not hold the lease yet.
                table.owner_hint = None
                await asyncio.sleep(next(pauses))
                continue
            client.send(error_message(str(code), str(reply.get("m", "")), table.state))
            return
        client.send(
            error_message(
                "unavailable",
                "no server process could take this action now (the table is changing hands, or its "
                "process does not answer); try again",
                table.state,
            )
        )

    async def take_over(self, table_id: str) -> bool:
        """Claim a table whose lease is free or expired, and play it here from its stored actions."""
        cluster = self.cluster
        if not await cluster.store.claim(table_id, cluster.lease_seconds):
            return False
        table = self.host.tables.get(table_id)
        if table is None:
            return await self.host.get(table_id) is not None
        if not table.owned:
            table.claimed_at = asyncio.get_running_loop().time()
            try:
                await table.catch_up()
            except BaseException:
                # Held but not played here: nobody would ever sweep it up. Let the lease lapse.
                await cluster.store.expire(table_id)
                raise
            if not table.owned:  # a concurrent take-over (a hand-over and an action at once) did it
                table.owned = True
                table.owner_hint = None
                log.info("table %s: taken over by this process", table_id)
                table.schedule_bot()
        return True

    async def hand_over(self, table: LiveTable, worker: str) -> None:
        """Give ``table`` to the process ``worker``, where its people are connected; drop it here."""
        cluster = self.cluster
        table_id = table.record.id
        async with table.lock:
            if not table.owned or table.clients or table.finished or self.host.closing:
                return
            table.owned = False
            if table.bot_task is not None:
                table.bot_task.cancel()
            await cluster.store.release(table_id)
        await cluster.send(worker_channel(worker), {"k": "take", "t": table_id, "w": cluster.worker})
        if not table.clients and self.host.tables.get(table_id) is table:
            self.host.unload(table_id)

    def lost(self, table: LiveTable) -> None:
        """Another process took ``table`` over: stop playing it here and follow it as a replica."""
        if not table.owned:
            return
        log.warning("table %s: its lease went to another process; following it", table.record.id)
        table.owned = False
        if table.bot_task is not None:
            table.bot_task.cancel()
        self.host.spawn(table.catch_up())

    def on_bus(self, channel: str, message: dict[str, Any]) -> None:
        cluster = self.cluster
        kind = message.get("k")
        if channel.startswith("w_"):
            if kind == "act":
                self.host.spawn(self.act_for(message))
            elif kind == "take":
                self.host.spawn(self.take_over(str(message.get("t"))))
            elif kind == "r":
                answer = self._requests.get(str(message.get("q")))
                if answer is not None and not answer.done():
                    answer.set_result(message)
            return
        table = self.host.tables.get(channel[2:])
        if table is None:
            return
        worker = str(message.get("w"))
        if kind == "a":
            if not table.owned:
                if worker != cluster.worker:  # our own announcement, heard back after losing the table
                    table.owner_hint = worker
                if not table.follow(int(message["i"]), str(message["a"])):
                    self.host.spawn(table.catch_up())
        elif kind == "p" and worker != cluster.worker:
            online = [bool(x) for x in message.get("o", [])][: table.record.players]
            table.remote_online[worker] = online
            watchers = message.get("s", 0)
            table.remote_watchers[worker] = watchers if isinstance(watchers, int) and watchers > 0 else 0
            table.seats_joined(int(j) for j in message.get("j", []) if 0 <= int(j) < table.record.players)
            table.broadcast_presence(coming_and_going=True)
            # Somebody watches over there: a search bot that waited for a watcher may move.
            table.schedule_bot()
            if table.owned and not table.clients and any(online):
                # Its people are over there and nobody is here: the table moves to them, so
                # that no process keeps a replica of a table it has no client of.
                self.host.spawn(self.hand_over(table, worker))
        elif kind == "pq" and worker != cluster.worker and table.clients:
            self.announce_presence(table)
        elif kind == "ch" and worker != cluster.worker and isinstance(message.get("l"), dict):
            players = table.record.players
            table.heard(
                TableChat.relayed(message["l"], players), TableChat.relayed_unheard(message.get("x"), players)
            )
        elif kind == "cm" and worker != cluster.worker and isinstance(message.get("c"), dict):
            table.moderated(message["c"])
        elif kind == "cd" and worker != cluster.worker:
            seat = int(message.get("s", -1))
            if 0 <= seat < table.record.players:
                table.conceded_by(seat)
        elif kind == "aw" and worker != cluster.worker:
            seat = int(message.get("s", -1))
            if 0 <= seat < table.record.players:
                table.set_away(seat, bool(message.get("v")))
        elif kind == "nm" and worker != cluster.worker:
            seat = int(message.get("s", -1))
            if 0 <= seat < table.record.players:
                table.renamed(seat, clean_name(str(message.get("n", ""))))
        elif kind == "rm" and worker != cluster.worker and table.clients:
            self.host.spawn(self.host.tell_rematch(table))

    async def act_for(self, message: dict[str, Any]) -> None:
        """An action another process forwarded to this one, the table's owner; the answer goes back to it."""
        cluster = self.cluster
        table = self.host.tables.get(str(message.get("t")))
        problem: tuple[str, str] | None
        if table is None or not table.owned:
            problem = (MOVED, "this process does not play the table")
        else:
            problem = await table.try_act(
                int(message["s"]), int(message["n"]), str(message["a"]), time.perf_counter()
            )
        reply = {"k": "r", "q": message.get("q"), "e": None if problem is None else problem[0]}
        if problem is not None:
            reply["m"] = problem[1]
        await cluster.send(worker_channel(str(message.get("r"))), reply)

    async def on_beat(self, owned: set[str], began: float) -> None:
        """After each heartbeat: tables whose lease was lost, tables whose owner died, absent processes."""
        cluster = self.cluster
        for table in list(self.host.tables.values()):
            if (
                table.owned
                and not table.finished
                and table.record.id not in owned
                and table.claimed_at < began
            ):
                self.lost(table)
        if self.host.closing:
            return
        # All at once (the database pool bounds how many load together): a process that died may
        # have held hundreds of tables, and each waits for its bots and people until taken over.
        orphans = await cluster.store.orphaned_tables(limit=1000)
        results = await asyncio.gather(*(self.take_over(t) for t in orphans), return_exceptions=True)
        for table_id, result in zip(orphans, results, strict=True):
            if isinstance(result, Exception):
                log.error("table %s: could not take it over: %s", table_id, result)
        if cluster.beats % 4 == 0:
            live = await cluster.store.live_workers(cluster.lease_seconds)
            for table in self.host.tables.values():
                gone = [w for w in table.remote_online if w not in live]
                for worker in gone:
                    del table.remote_online[worker]
                    table.remote_watchers.pop(worker, None)
                if gone:
                    table.broadcast_presence()

    def on_reconnect(self) -> None:
        """The bus was down for a while: replicas read what they missed from the store."""
        for table in list(self.host.tables.values()):
            if not table.owned:
                self.host.spawn(table.catch_up())

"""Several server processes sharing one PostgreSQL database: table leases and the message bus.

A server on PostgreSQL is one *worker* among any number (``serve --workers N``
on one machine, the same command on several machines behind a proxy). Any
worker accepts any client; each live table is owned by exactly one worker at a
time, the holder of its **lease** (a row in ``leases``, timed by the
database's clock). Only the owner stores actions and runs the table's bots;
the store refuses an action from a worker that no longer holds the lease
(:class:`~.pg_store.LeaseLost`), so a worker that was paused past its lease
can never write over its successor.

The **bus** is PostgreSQL ``LISTEN``/``NOTIFY`` (measured against Redis
pub/sub in ``tools/bus_compare.py``: the same latency and throughput on this
job, and NOTIFY is sent by the transaction that stores the action, so an
announcement goes out if and only if its action is committed, in commit
order, with no other service to run). Channels:

- ``t_<table>``: each stored action (sent by the owner's store transaction),
  and each worker's connected seats (presence). Every worker holding the table
  listens, and a worker that is not the owner keeps a *replica* of the game by
  applying the announced actions, so it builds its own clients' views;
- ``w_<worker>``: messages routed to one worker: a client's action forwarded
  to the table's owner, and the owner's answer.

**Failover.** Every worker renews its leases and its heartbeat each
:attr:`Cluster.renew_seconds`; a lease not renewed for
:attr:`Cluster.lease_seconds` is expired, and the next worker to sweep (every
renewal) claims the table, replays it from the stored actions and carries on
with its bots. Browsers reconnect by themselves to any worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Iterator
from typing import Any

from .channels import worker_channel
from .pg_store import PostgresStore
from .retry_pauses import jittered_pauses

log = logging.getLogger("oriflamme.web")

#: How long the reader waits for notifications before it runs queued LISTEN commands.
POLL_SECONDS = 0.05


def new_worker_id() -> str:
    return secrets.token_hex(6)


def _reconnect_pauses() -> Iterator[float]:
    """Seconds between tries to reach the database for the bus: 0.1 s to a window of 0.2 s doubling to 5 s.

    Drawn at random, so that the workers of a restarted database do not all come back in the same instant.
    """
    return jittered_pauses(0.2, 5.0, least=0.1)


class Cluster:
    """One worker's part in the cluster: its id, its bus connection, and the loop that keeps its leases."""

    def __init__(
        self,
        store: PostgresStore,
        *,
        lease_seconds: float = 3.0,
        renew_seconds: float = 0.75,
    ) -> None:
        if store.owner is None:
            store.owner = new_worker_id()
        self.store = store
        self.worker: str = store.owner
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        #: Called for each message on a channel this worker listens to: (channel, message).
        self.on_message: Callable[[str, dict[str, Any]], None] = lambda channel, message: None
        #: Called after each heartbeat with the tables this worker still owns and the time the beat began.
        self.on_beat: Callable[[set[str], float], Any] = lambda owned, began: None
        #: Called after the bus connection was lost and made again (announcements may have been missed).
        self.on_reconnect: Callable[[], Any] = lambda: None
        self._channels: set[str] = {worker_channel(self.worker)}
        self._commands: list[tuple[str, str, asyncio.Future[None]]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._connected = asyncio.Event()
        self.beats = 0

    # -- the bus

    async def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._read_forever(), name="oriflamme-bus"))
        await asyncio.wait_for(self._connected.wait(), 30)
        self._tasks.append(asyncio.create_task(self._beat_forever(), name="oriflamme-leases"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        with contextlib.suppress(Exception):
            await self.store.release_all()

    async def listen(self, channel: str) -> None:
        """Hear ``channel`` from now on; returns once the database has the LISTEN."""
        if channel in self._channels:
            return
        self._channels.add(channel)
        await self._command("LISTEN", channel)

    async def unlisten(self, channel: str) -> None:
        if channel not in self._channels:
            return
        self._channels.discard(channel)
        await self._command("UNLISTEN", channel)

    async def _command(self, verb: str, channel: str) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._commands.append((verb, channel, future))
        await future

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self.store.publish(channel, json.dumps(message, separators=(",", ":")))

    async def _read_forever(self) -> None:
        import psycopg
        from psycopg import sql

        pauses = _reconnect_pauses()
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.store.dsn, autocommit=True)
            except psycopg.OperationalError as exc:
                log.warning("bus: cannot reach the database (%s); trying again", exc)
                await asyncio.sleep(next(pauses))
                continue
            try:
                for channel in sorted(self._channels):
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                if self._connected.is_set():
                    self.on_reconnect()
                self._connected.set()
                pauses = _reconnect_pauses()
                while True:
                    commands, self._commands = self._commands, []
                    for verb, channel, future in commands:
                        await conn.execute(sql.SQL(verb + " {}").format(sql.Identifier(channel)))
                        if not future.done():
                            future.set_result(None)
                    async for note in conn.notifies(timeout=POLL_SECONDS):
                        try:
                            message = json.loads(note.payload)
                        except ValueError:
                            log.error("bus: a message that is not JSON on %s", note.channel)
                            continue
                        try:
                            self.on_message(note.channel, message)
                        except Exception:
                            log.exception("bus: could not handle a message on %s", note.channel)
            except psycopg.OperationalError as exc:
                log.warning("bus: the connection to the database was lost (%s); reconnecting", exc)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()

    # -- leases

    async def _beat_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            try:
                owned = await self.store.heartbeat(self.lease_seconds)
                self.beats += 1
                result = self.on_beat(owned, began)
                if asyncio.iscoroutine(result):
                    await result
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("leases: a heartbeat failed; trying again")
            await asyncio.sleep(max(0.0, self.renew_seconds - (loop.time() - began)))

"""One browser connection: its own queue of outgoing frames, and the table it joined.

Each connection has its own writer task, so a slow or dead browser fills only
its own queue (and is dropped when the queue overflows), never its table.
The table is named through :class:`JoinedTable`, the calls the message loop
makes on it, so that this module needs nothing from the table's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from .protocol import ActMessage, ChatModMessage
from .store import TokenRef

log = logging.getLogger("oriflamme.web")

#: Messages waiting for one browser before it is considered gone.
MAX_BACKLOG = 256


class JoinedTable(Protocol):
    """What a connection asks of the table it joined (:class:`~.live_table.LiveTable`)."""

    @property
    def state(self) -> int: ...

    async def rename(self, client: Client, text: str) -> None: ...

    def leave_or_return(self, client: Client, away: bool) -> None: ...

    async def concede(self, client: Client) -> None: ...

    async def take_back(self, client: Client) -> None: ...

    async def say(self, client: Client, text: str) -> None: ...

    def moderate(self, client: Client, msg: ChatModMessage) -> None: ...

    async def act(self, client: Client, msg: ActMessage, received: float) -> None: ...

    def detach(self, client: Client) -> None: ...


class Client:
    """One browser connection: its seat once joined, and its own queue of outgoing frames."""

    def __init__(
        self, send: Callable[[str], Awaitable[None]], close: Callable[[], Awaitable[None]], address: str = ""
    ) -> None:
        self._send = send
        self._close = close
        #: Where the connection comes from: the rates of a spectator's messages count by it
        #: (a seat's count by the seat, whichever connection sends: see :mod:`.seat_rates`).
        self.address = address
        self.table: JoinedTable | None = None
        self.ref: TokenRef | None = None
        self.errors = 0
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())
        self.closed = False

    @property
    def seat(self) -> int | None:
        return None if self.ref is None else self.ref.seat if self.ref.role == "person" else None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= MAX_BACKLOG:
            log.warning("dropping a connection that does not read its messages")
            self.close()
            return
        self._queue.put_nowait(text)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self._send(text)
        except Exception:  # the socket went away: the reader loop notices and cleans up
            pass
        finally:
            self.closed = True
            with contextlib.suppress(Exception):
                await self._close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def finish(self) -> None:
        self.close()
        # The writer ends on the None sentinel; give it a moment to flush.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._writer), 1.0)
        self._writer.cancel()

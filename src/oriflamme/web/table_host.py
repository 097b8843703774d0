"""What a live table needs from the process that holds it, and the constants both sides share.

A :class:`~.live_table.LiveTable` talks to its registry (:class:`~.tables.TableRegistry`)
through :class:`TableHost`: the store, the bot runner, the bus announcements.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .bot_runners import BotRunner
from .bot_share import BotShare
from .client import Client
from .seat_rates import SeatRates
from .store import Storage

if TYPE_CHECKING:
    from .cluster import Cluster

#: The table type a host holds.
TableT = TypeVar("TableT")


class TableHost(Protocol[TableT]):
    """What a live table needs from the registry that holds it (:class:`~.tables.TableRegistry`).

    Generic in the table type, so that this module need not import the table (no import cycle,
    type-only ones included): the registry is a ``TableHost[LiveTable]``.
    """

    store: Storage
    bot_runner: BotRunner
    bot_delay: float
    bot_tasks: set[asyncio.Task[None]]
    closing: bool
    cluster: Cluster | None
    rates: SeatRates
    bot_share: BotShare

    def announce_presence(self, table: TableT) -> None: ...

    def announce_away(self, table: TableT, seat: int, away: bool) -> None: ...

    def announce_concession(self, table: TableT, seat: int) -> None: ...

    def announce_rename(self, table: TableT, seat: int, name: str) -> None: ...

    def announce_chat(self, table: TableT, message: dict[str, Any]) -> None: ...

    async def forward(self, table: TableT, client: Client, seat: int, state: int, text: str) -> None: ...

    def lost(self, table: TableT) -> None: ...

    def game_over(self, table: TableT) -> None:
        """The game of ``table`` has just ended here (its last action stored by this process)."""
        ...

    def turn_passed(self, table: TableT, seat: int) -> None:
        """A turn-based table now asks ``seat``, a person not at the table (stored by this process)."""
        ...

    async def rematch_of(self, table: TableT) -> TableT | None: ...

    def unload(self, table_id: str) -> None: ...


#: What a presence frame says: who is connected, away, conceded, and not yet joined.
Presence = tuple[tuple[bool, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
#: Seconds between two presence frames to everyone at a table, at least (changes in between wait).
PRESENCE_GAP = 0.5
#: The bot that plays for a person who left or let their turn timer run out.
STAND_IN = "heuristic"
#: The error of an action that reached a process which no longer owns the table (it is passed on).
MOVED = "moved"

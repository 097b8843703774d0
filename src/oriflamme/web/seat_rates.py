"""How often each seat may make its table hear something: rates that survive reconnecting.

Leaving a seat to a bot and taking it back, renaming, taking back a move,
chatting and moderating the chat each make the server send a frame to every
connection at the table (a take-back sends every page the whole game). A
rate counted per connection would reset each time the sender reconnects, so
these are counted per *seat* of a table, whichever of its connections sends,
and, for spectators (who share one link), per address. The counts are the
``limits`` package's moving windows, held by the process that serves the
connection.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .guard import client_key
from .protocol import ProtocolError

if TYPE_CHECKING:  # the package comes with the web extra
    from limits import RateLimitItem


@dataclass(frozen=True, slots=True)
class SeatRate:
    """One kind of message's rate (``limits`` notation) and the error that refuses one over it."""

    rate: str
    code: str
    #: What the refusal says before the rate and the wait ("you may leave or take back your seat").
    doing: str


#: The rates, by the message they count. Generous for a person; tight for a script.
RATES: dict[str, SeatRate] = {
    "away": SeatRate("12/minute", "too_fast", "a seat may be left to a bot or taken back"),
    "rename": SeatRate("10/hour", "too_many_renames", "a seat may be renamed"),
    "take_back": SeatRate("30/hour", "cannot_take_back", "a seat may take back a move"),
    "chat": SeatRate("5/10 seconds", "chat_too_fast", "a seat may send chat lines"),
    "chat_mod": SeatRate("30/minute", "too_fast", "the host may change who chats"),
}


class SeatRates:
    """The counts of every table's seats (and spectators' addresses) in one server process."""

    def __init__(self, rates: dict[str, SeatRate] | None = None) -> None:
        from limits import parse
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self.rates = dict(RATES if rates is None else rates)
        self._items: dict[str, RateLimitItem] = {what: parse(r.rate) for what, r in self.rates.items()}
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, what: str, table_id: str, seat: int | None, address: str) -> None:
        """Count one ``what`` message of ``seat`` (None: a spectator at ``address``) at ``table_id``;
        :class:`~.protocol.ProtocolError` (nothing counted) if it is over the rate."""
        who = f"seat {seat}" if seat is not None else f"spectator {client_key(address)}"
        item = self._items[what]
        if self._limiter.hit(item, what, table_id, who):
            return
        reset, _ = self._limiter.get_window_stats(item, what, table_id, who)
        wait = max(1, round(reset - time.time()))
        rate = self.rates[what]
        raise ProtocolError(rate.code, f"{rate.doing} at most {item}; wait {wait} s")

"""Open tables: who sits at each, and the free seats strangers take there, by choice or by quick match.

A stranger who takes a seat gets a token minted for them, which replaces the
seat's old one in the store: the table's creator, who once held every seat's
token, cannot open the seat the stranger now holds. One address (for IPv6,
one /48 network) takes one seat per table, remembered per process.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping

from .live_table import LiveTable
from .store import OpenTable, Storage, StorageError, left_out, open_table

#: Open tables whose seated addresses a process remembers (the oldest are forgotten first).
MAX_OPEN_SEAT_RECORDS = 10_000


def new_token() -> str:
    """A fresh link token: 18 random bytes, unguessable, URL-safe."""
    return secrets.token_urlsafe(18)


class OpenSeats:
    """The seats of the open tables that people take, for one server process."""

    def __init__(
        self,
        store: Storage,
        tables: Mapping[str, LiveTable],
        get: Callable[[str], Awaitable[LiveTable | None]],
        announce: Callable[[LiveTable], None],
    ) -> None:
        self.store = store
        self._tables = tables
        self._get = get
        self._announce = announce
        #: The addresses seated at each open table by this process (its creator's, the strangers').
        self._seated: dict[str, set[str]] = {}

    def seated_at(self, table_id: str, address: str) -> bool:
        """Whether ``address`` (a :func:`~.guard.client_key`) made or took a seat at open table ``table_id``."""
        return address in self._seated.get(table_id, ())

    def note(self, table_id: str, address: str) -> None:
        """Remember that ``address`` sits at open table ``table_id`` (one seat per address and table;
        "" is nobody in particular, never refused)."""
        if not address:
            return
        self._seated.setdefault(table_id, set()).add(address)
        while len(self._seated) > MAX_OPEN_SEAT_RECORDS:
            self._seated.pop(next(iter(self._seated)))

    async def take(
        self, table_id: str | None = None, address: str = "", longest_turn: int | None = None
    ) -> tuple[LiveTable, int, str] | None:
        """A free person seat at an open table (``table_id``'s, or for a quick match the oldest one
        somebody is at whose turn timer is at most ``longest_turn`` and whose last free seat it is),
        now taken: the table, the seat and the seat's new token; None: none.

        The token is minted here and replaces the seat's old one in the store, so that nobody else
        (the table's creator had every seat's) can open the seat the stranger now holds. An address
        that already sits at a table is not seated there again (one person, one seat)."""
        if table_id is not None:
            try:
                stored = await self.store.load_table(table_id)
            except StorageError:
                raise
            except Exception as exc:  # damaged rows: no seat to take there (its links say why)
                left_out(table_id, exc)
                stored = None
            usable = stored is not None and not stored.finished and stored.record.open
            candidates = [open_table(stored)] if usable else []
        else:
            candidates = self._quick_candidates(longest_turn) or await self.store.open_tables()
            if longest_turn is not None:
                candidates = [c for c in candidates if 0 < c.record.turn_seconds <= longest_turn]
            # Only where this person fills the last free seat: the clocks start when every person
            # seat has been taken, so a seat beside other free ones could wait on strangers for good.
            candidates = [c for c in candidates if len(c.free) == 1]
        quick = table_id is None
        for candidate in candidates:
            at = candidate.record.id
            if address and self.seated_at(at, address):
                continue
            # Noted before the store is asked, so that two asks at once from one address cannot
            # both pass the check above; forgotten again if no seat is had.
            self.note(at, address)
            found = None
            if not quick or await self._somebody_there(at):
                found = await self._claim_a_free_seat(candidate)
            if found is not None:
                return found
            self._seated.get(at, set()).discard(address)
        return None

    def _quick_candidates(self, longest_turn: int | None) -> list[OpenTable]:
        """The open tables in this process's memory with a free seat and a person there, oldest first:
        a quick match looks here before the store, whose list (the 50 oldest) tables nobody is at
        could fill for good."""
        found = []
        for table in self._tables.values():
            r = table.record
            if not r.open or table.finished or (longest_turn is not None and r.turn_seconds > longest_turn):
                continue
            free = tuple(i for i, s in enumerate(r.seats) if s.kind == "person" and i not in table.joined)
            if free and _somebody_playing(table):
                found.append(OpenTable(r, free))
        return sorted(found, key=lambda t: t.record.created)

    async def _claim_a_free_seat(self, candidate: OpenTable) -> tuple[LiveTable, int, str] | None:
        for seat in candidate.free:
            token = new_token()
            if await self.store.claim_seat(candidate.record.id, seat, token):
                table = await self._get(candidate.record.id)
                if table is None:
                    continue
                table.record = table.record.with_token(seat, token)
                table.seats_joined([seat])
                self._announce(table)
                return table, seat, token
        return None

    async def _somebody_there(self, table_id: str) -> bool:
        """Whether a person has open table ``table_id`` open now: a quick match seats nobody at a
        table its people have left (it would wait on stand-ins, or on nobody)."""
        table = await self._get(table_id)
        return table is not None and _somebody_playing(table)


def _somebody_playing(table: LiveTable) -> bool:
    """Whether a person is at ``table`` now and still in the game (connected, not conceded): a quick
    match seats nobody where it would play against stand-ins only."""
    seats = table.record.seats
    return any(
        on and seats[i].kind == "person" and i not in table.conceded for i, on in enumerate(table.online())
    )

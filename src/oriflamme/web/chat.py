"""A table's chat: short lines, a rate per seat (:mod:`.seat_rates`), spectators only when the host allows, and
the host's say over each seat's voice.

A line is not for a seat whose account blocks its speaker's account (:mod:`.friends`): such seats
are kept with the line, in :attr:`TableChat.unheard`, and never sent it, then or later.

The host is the person at seat 1, who made the table in the lobby (and keeps
seat 1 at its rematches). The chat lives in memory, on every process that has
the table (lines and the host's decisions travel on the bus): a short
conversation at a table, not a record; a restart forgets it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .names import clean_text
from .protocol import ChatModMessage, ProtocolError

#: Longest chat line, in characters (after cleaning).
MAX_CHAT = 300
#: Lines a table remembers for people who join later.
CHAT_KEPT = 50
#: The seat whose person is the table's host.
HOST_SEAT = 0


@dataclass(slots=True)
class TableChat:
    """What a table's chat remembers, and who may speak."""

    lines: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    #: Seats the host silenced.
    muted: set[int] = field(default_factory=set)
    spectators_allowed: bool = False
    #: Numbers lines, so that a line heard twice (here and from the bus) is kept once.
    counter: int = 0
    #: The seats each line (by id) is not for: their accounts block its speaker's.
    unheard: dict[str, frozenset[int]] = field(default_factory=dict)

    def new_line(self, seat: int | None, text: str, count: Callable[[], None], worker: str) -> dict[str, Any]:
        """A line from ``seat`` (None: a spectator), cleaned and numbered; ProtocolError says why not.

        ``count`` counts the line against its sender's rate, raising ProtocolError over it (only a
        line that could be said is counted); ``worker`` names the server process, so that lines
        numbered by two processes differ.
        """
        if seat is None and not self.spectators_allowed:
            raise ProtocolError("chat_closed", "spectators may not chat at this table")
        if seat is not None and seat in self.muted:
            raise ProtocolError("chat_muted", "the host has silenced your chat at this table")
        line = clean_text(text)
        if not line:
            raise ProtocolError("bad_chat", "a chat line needs at least one visible character")
        if len(line) > MAX_CHAT:
            raise ProtocolError(
                "chat_too_long", f"a chat line is at most {MAX_CHAT} characters, not {len(line)}"
            )
        count()
        self.counter += 1
        return {"id": f"{worker}.{self.counter}", "seat": seat, "text": line, "at": round(time.time(), 3)}

    @staticmethod
    def relayed(line: dict[str, Any], players: int) -> dict[str, Any]:
        """A line another server process heard, cleaned again: the bus is not trusted with shapes."""
        seat = line.get("seat")
        return {
            "id": str(line.get("id")),
            "seat": seat if isinstance(seat, int) and 0 <= seat < players else None,
            "text": clean_text(str(line.get("text", "")))[:MAX_CHAT],
            "at": float(line.get("at", 0.0)),
        }

    @staticmethod
    def relayed_unheard(seats: Any, players: int) -> frozenset[int]:
        """The seats a relayed line is not for, as another process announced them (checked again)."""
        if not isinstance(seats, list):
            return frozenset()
        return frozenset(s for s in seats if type(s) is int and 0 <= s < players)

    @staticmethod
    def moderation(by: int | None, host_is_person: bool, msg: ChatModMessage, players: int) -> dict[str, Any]:
        """The change the host asks for (``by`` is the asking seat); ProtocolError if it may not be made."""
        if by != HOST_SEAT or not host_is_person:
            raise ProtocolError("not_host", "only the host (the person at seat 1) decides who may chat")
        if msg.seat is not None and not 0 <= msg.seat < players:
            raise ProtocolError("malformed", f"no seat {msg.seat + 1} at this table")
        if msg.seat == HOST_SEAT:
            raise ProtocolError("malformed", "the host cannot silence themselves")
        return {"seat": msg.seat, "mute": msg.mute, "remove": msg.remove, "spectators": msg.spectators}

    def apply(self, change: dict[str, Any], players: int) -> None:
        """Make a moderation change (made here, or heard from another process: so checked again)."""
        seat = change.get("seat")
        if isinstance(seat, int) and 0 <= seat < players:
            if change.get("mute") is True:
                self.muted.add(seat)
            elif change.get("mute") is False:
                self.muted.discard(seat)
            if change.get("remove"):
                self.remove_seat(seat)
        if isinstance(change.get("spectators"), bool):
            self.spectators_allowed = bool(change["spectators"])

    def add(self, line: dict[str, Any], unheard: frozenset[int] = frozenset()) -> bool:
        """Keep a line, not for the ``unheard`` seats (False if it was kept already)."""
        if any(kept["id"] == line["id"] for kept in self.lines):
            return False
        if len(self.lines) == self.lines.maxlen:
            self.unheard.pop(self.lines[0]["id"], None)  # the oldest line goes as this one comes
        self.lines.append(line)
        if unheard:
            self.unheard[line["id"]] = unheard
        return True

    def is_for(self, seat: int | None, line: dict[str, Any], deaf_to: frozenset[int] = frozenset()) -> bool:
        """Whether ``seat`` (None: a spectator) hears ``line``; ``deaf_to``: speakers' seats whose
        accounts the seat's account blocks now (a line said before the block)."""
        if seat is None:
            return True
        return seat not in self.unheard.get(line["id"], ()) and line.get("seat") not in deaf_to

    def remove_seat(self, seat: int) -> None:
        """Forget every line of ``seat`` (the host removed them)."""
        kept = [line for line in self.lines if line.get("seat") != seat]
        self.lines.clear()
        self.lines.extend(kept)
        ids = {line["id"] for line in kept}
        self.unheard = {k: v for k, v in self.unheard.items() if k in ids}

    def state(self, seat: int | None = None, deaf_to: frozenset[int] = frozenset()) -> dict[str, Any]:
        """What ``seat``'s page shows of the chat: the lines for it and who may speak."""
        return {
            "lines": [line for line in self.lines if self.is_for(seat, line, deaf_to)],
            "muted": sorted(self.muted),
            "spectators": self.spectators_allowed,
        }
